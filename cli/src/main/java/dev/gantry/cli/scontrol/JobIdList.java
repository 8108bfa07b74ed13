package dev.gantry.cli.scontrol;

import dev.gantry.cli.model.JobInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job list as scontrol hold/release/requeue/top/update take it (Slurm's {@code _is_job_id} and
 * {@code _next_job_id} in src/scontrol/update_job.c): ids separated by ',' or ' ', each {@code 123} (a job, or
 * every task of array 123), {@code 123_4} (one array task) or {@code 123_[1-3,5]} (some tasks).
 *
 * @param refs the ids in the order given
 */
public record JobIdList(List<Ref> refs) {

    /** One id: {@code tasks} empty for {@code 123}, else the task indexes named. */
    public record Ref(long jobId, List<Integer> tasks, String text) {}

    /** A job to act on, and how to name it in messages (123, or 123_4 for an array task). */
    public record Target(long jobId, String display) {}

    public JobIdList {
        refs = List.copyOf(refs);
    }

    /**
     * Parses a job list.
     *
     * @throws IllegalArgumentException naming the malformed id, for "Invalid job id specified for job X"
     */
    public static JobIdList parse(String text) {
        String s = text.trim();
        if (s.regionMatches(true, 0, "JobId=", 0, 6)) {
            s = s.substring(6);
        } else if (s.regionMatches(true, 0, "Job=", 0, 4)) {
            s = s.substring(4);
        }
        List<Ref> refs = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : ',';
            depth += c == '[' ? 1 : c == ']' ? -1 : 0;
            if ((c == ',' || c == ' ') && depth == 0) {
                String token = s.substring(start, i);
                if (!token.isEmpty()) {
                    refs.add(ref(token));
                }
                start = i + 1;
            }
        }
        if (refs.isEmpty() || depth != 0) {
            throw new IllegalArgumentException(text);
        }
        return new JobIdList(refs);
    }

    private static Ref ref(String token) {
        int under = token.indexOf('_');
        String base = under < 0 ? token : token.substring(0, under);
        long id;
        try {
            id = Long.parseLong(base);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(token);
        }
        if (id <= 0 || !base.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException(token);
        }
        if (under < 0) {
            return new Ref(id, List.of(), token);
        }
        String tasks = token.substring(under + 1);
        if (tasks.startsWith("[") && tasks.endsWith("]")) {
            tasks = tasks.substring(1, tasks.length() - 1);
        }
        List<Integer> ids = new ArrayList<>();
        for (String part : tasks.split(",", -1)) {
            String[] range = part.split("-", -1);
            try {
                int first = Integer.parseInt(range[0]);
                int last = range.length == 2 ? Integer.parseInt(range[1]) : first;
                if (range.length > 2 || first < 0 || last < first || last - first > 1_000_000) {
                    throw new IllegalArgumentException(token);
                }
                for (int t = first; t <= last; t++) {
                    ids.add(t);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(token);
            }
        }
        return new Ref(id, List.copyOf(ids), token);
    }

    /** Whether some id names array tasks, so that the caller must know the jobs to resolve it. */
    public boolean namesTasks() {
        return refs.stream().anyMatch(r -> !r.tasks().isEmpty());
    }

    /** The distinct job ids as written (for a first lookup). */
    public List<Long> baseIds() {
        return refs.stream().map(Ref::jobId).distinct().toList();
    }

    /**
     * The jobs the list names, given the jobs the controller knows: an array's id stands for all its tasks; a task
     * the controller does not know is left out and reported through {@code unknown}; a plain id it does not know is
     * kept (the controller answers for it).
     */
    public List<Target> resolve(List<JobInfo> known, List<String> unknown) {
        Map<Long, Target> out = new LinkedHashMap<>();
        for (Ref r : refs) {
            List<JobInfo> tasks = known.stream()
                    .filter(j -> j.array().arrayJobId() == r.jobId() && j.array().taskId() != null)
                    .sorted(Comparator.comparingInt(j -> j.array().taskId())).toList();
            if (r.tasks().isEmpty()) {
                if (tasks.isEmpty()) {
                    out.putIfAbsent(r.jobId(), new Target(r.jobId(), Long.toString(r.jobId())));
                }
                tasks.forEach(j -> out.putIfAbsent(j.jobId(), target(j)));
                continue;
            }
            for (int t : r.tasks()) {
                tasks.stream().filter(j -> j.array().taskId() == t).findFirst().ifPresentOrElse(
                        j -> out.putIfAbsent(j.jobId(), target(j)), () -> unknown.add(r.jobId() + "_" + t));
            }
        }
        return List.copyOf(out.values());
    }

    /** How scontrol names a job: 123_4 for an array task, else its id. */
    public static Target target(JobInfo j) {
        JobInfo.ArrayTask array = j.array();
        return new Target(j.jobId(), array.arrayJobId() != 0 && array.taskId() != null
                ? array.arrayJobId() + "_" + array.taskId() : Long.toString(j.jobId()));
    }
}
