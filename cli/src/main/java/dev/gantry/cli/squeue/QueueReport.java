package dev.gantry.cli.squeue;

import dev.gantry.api.v1.Job;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * squeue's output: the header (unless -h), then the selected jobs in the requested order, one line each.
 *
 * @param format the -o format
 * @param order the -S order
 * @param filter which jobs to show
 * @param header whether to print the header line
 */
public record QueueReport(JobFormat format, JobOrder order, JobFilter filter, boolean header) {

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
        jobs.stream()
                .filter(filter::matches)
                .map(job -> new JobView(job, now, zone))
                .sorted(order.comparator())
                .forEach(view -> out.add(format.line(view)));
        return out;
    }
}
