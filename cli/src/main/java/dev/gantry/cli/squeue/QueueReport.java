package dev.gantry.cli.squeue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * squeue's output: the header (unless -h), then the selected jobs in the requested order, one line each. As in
 * Slurm, the pending tasks of one array that share partition and reason show as one line ({@code 123_[5-99%10]})
 * unless -r asks for one line per task.
 *
 * @param format the -o format
 * @param order the -S order
 * @param filter which jobs to show
 * @param header whether to print the header line
 * @param taskPerLine squeue -r: every array task on its own line
 */
public record QueueReport(JobFormat format, JobOrder order, JobFilter filter, boolean header, boolean taskPerLine) {

    /** A report that shows pending array tasks together. */
    public QueueReport(JobFormat format, JobOrder order, JobFilter filter, boolean header) {
        this(format, order, filter, header, false);
    }

    /** The report's lines (without newlines) for the jobs the controller returned, at {@code now}. */
    public List<String> lines(Collection<Job> jobs, Instant now, ZoneId zone) {
        return lines(jobs, now, () -> zone);
    }

    /** As {@link #lines(Collection, Instant, ZoneId)}, asking for the zone only if a timestamp is printed. */
    public List<String> lines(Collection<Job> jobs, Instant now, Supplier<ZoneId> zone) {
        List<String> out = new ArrayList<>();
        if (header) {
            out.add(format.header());
        }
        views(jobs.stream().filter(filter::matches).toList(), now, zone).stream()
                .sorted(order.comparator())
                .forEach(view -> out.add(format.line(view)));
        return out;
    }

    /** One view per job, the pending tasks of an array with one partition and reason folded into one. */
    private List<JobView> views(List<Job> jobs, Instant now, Supplier<ZoneId> zone) {
        List<JobView> views = new ArrayList<>();
        Map<String, List<Job>> folded = new LinkedHashMap<>();
        for (Job job : jobs) {
            if (!taskPerLine && job.getArrayJobId() != 0 && job.hasArrayTaskId()
                    && job.getState() == JobState.JOB_STATE_PENDING) {
                folded.computeIfAbsent(job.getArrayJobId() + "\0" + job.getPartition() + "\0" + job.getReason(),
                        k -> new ArrayList<>()).add(job);
            } else {
                views.add(new JobView(job, now, zone));
            }
        }
        for (List<Job> tasks : folded.values()) {
            List<Job> sorted = tasks.stream().sorted(Comparator.comparingInt(Job::getArrayTaskId)).toList();
            views.add(new JobView(sorted.get(0), now, zone, sorted.stream().map(Job::getArrayTaskId).toList()));
        }
        return views;
    }
}
