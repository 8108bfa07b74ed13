package dev.gantry.cli.squeue;

import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.text.IdRanges;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Supplier;

/**
 * A job as squeue sees it at one instant: the derived values its fields and sort keys share.
 *
 * @param job the controller's record (for a line of pending array tasks: the first of them)
 * @param now when the report is made (TIME and TIME_LEFT count up to it)
 * @param zones the zone timestamps print in, asked for only when a timestamp is printed
 * @param pendingTasks for a line standing for pending tasks of one array, their task ids, ascending; else empty
 */
public record JobView(JobInfo job, Instant now, Supplier<ZoneId> zones, List<Integer> pendingTasks) {

    public JobView {
        pendingTasks = List.copyOf(pendingTasks);
    }

    /** A view of one job, printing timestamps in {@code zone}. */
    public JobView(JobInfo job, Instant now, ZoneId zone) {
        this(job, now, () -> zone, List.of());
    }

    /** A view of one job. */
    public JobView(JobInfo job, Instant now, Supplier<ZoneId> zones) {
        this(job, now, zones, List.of());
    }

    /**
     * The JOBID squeue prints (%i): {@code 123_4} for an array task, {@code 123_[5-99%10]} for the pending tasks
     * of array 123 shown together (the %N throttle when it has one), else the job id.
     */
    public String displayId() {
        JobInfo.ArrayTask array = job.array();
        if (array.arrayJobId() == 0) {
            return Long.toString(job.jobId());
        }
        String tasks = taskIds();
        if (pendingTasks.size() > 1 || (!pendingTasks.isEmpty() && array.maxRunning() > 0)) {
            return array.arrayJobId() + "_[" + tasks + "]";
        }
        return array.arrayJobId() + "_" + tasks;
    }

    /** %K: the array task id, the pending tasks' ranges with the throttle, or "N/A" when not an array task. */
    public String taskIds() {
        JobInfo.ArrayTask array = job.array();
        if (array.arrayJobId() == 0) {
            return "N/A";
        }
        if (pendingTasks.isEmpty()) {
            return array.taskText();
        }
        String ranges = IdRanges.format(pendingTasks);
        return array.maxRunning() > 0 ? ranges + "%" + array.maxRunning() : ranges;
    }


    /** The zone timestamps print in. */
    public ZoneId zone() {
        return zones.get();
    }

    /** Seconds the job has run ({@link JobInfo#secondsUsed}): squeue TIME, and TIME_LEFT's subtrahend. */
    public long secondsUsed() {
        return job.secondsUsed(now);
    }

    /** The allocated nodes as a Slurm host list ("" when none). */
    public String nodeList() {
        return job.resources().hostList();
    }

    /** The pending or failure reason; Slurm's "None" when the controller sent none. */
    public String reason() {
        return job.reason().isEmpty() ? "None" : job.reason();
    }

    /** The start time squeue sorts by: unknown sorts after now, a pending job's past estimate counts as now. */
    public Instant startForSort() {
        Instant start = job.times().start();
        if (start == null) {
            return now.plusSeconds(100);
        }
        if (job.pending() && start.isBefore(now)) {
            return now;
        }
        return start;
    }
}
