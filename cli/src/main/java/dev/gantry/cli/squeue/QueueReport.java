package dev.gantry.cli.squeue;

import dev.gantry.cli.model.JobInfo;
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
    public List<String> lines(Collection<JobInfo> jobs, Instant now, ZoneId zone) {
        return lines(jobs, now, () -> zone);
    }

    /** As {@link #lines(Collection, Instant, ZoneId)}, asking for the zone only if a timestamp is printed. */
    public List<String> lines(Collection<JobInfo> jobs, Instant now, Supplier<ZoneId> zone) {
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
    private List<JobView> views(List<JobInfo> jobs, Instant now, Supplier<ZoneId> zone) {
        List<JobView> views = new ArrayList<>();
        Map<String, List<JobInfo>> folded = new LinkedHashMap<>();
        for (JobInfo job : jobs) {
            JobInfo.ArrayTask array = job.array();
            if (!taskPerLine && array.arrayJobId() != 0 && array.taskId() != null && job.pending()) {
                folded.computeIfAbsent(array.arrayJobId() + "\0" + job.partition() + "\0" + job.reason(),
                        k -> new ArrayList<>()).add(job);
            } else {
                views.add(new JobView(job, now, zone));
            }
        }
        for (List<JobInfo> tasks : folded.values()) {
            List<JobInfo> sorted = tasks.stream().sorted(Comparator.comparingInt(j -> j.array().taskId())).toList();
            views.add(new JobView(sorted.get(0), now, zone, sorted.stream().map(j -> j.array().taskId()).toList()));
        }
        return views;
    }
}
