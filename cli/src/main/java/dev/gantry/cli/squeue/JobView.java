package dev.gantry.cli.squeue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.text.IdRanges;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
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
public record JobView(Job job, Instant now, Supplier<ZoneId> zones, List<Integer> pendingTasks) {

    public JobView {
        pendingTasks = List.copyOf(pendingTasks);
    }

    /** A view of one job, printing timestamps in {@code zone}. */
    public JobView(Job job, Instant now, ZoneId zone) {
        this(job, now, () -> zone, List.of());
    }

    /** A view of one job. */
    public JobView(Job job, Instant now, Supplier<ZoneId> zones) {
        this(job, now, zones, List.of());
    }

    /**
     * The JOBID squeue prints (%i): {@code 123_4} for an array task, {@code 123_[5-99%10]} for the pending tasks
     * of array 123 shown together (the %N throttle when it has one), else the job id.
     */
    public String displayId() {
        if (job.getArrayJobId() == 0) {
            return Long.toString(job.getJobId());
        }
        String tasks = taskIds();
        if (pendingTasks.size() > 1 || (!pendingTasks.isEmpty() && job.getArrayMaxRunning() > 0)) {
            return job.getArrayJobId() + "_[" + tasks + "]";
        }
        return job.getArrayJobId() + "_" + tasks;
    }

    /** %K: the array task id, the pending tasks' ranges with the throttle, or "N/A" when not an array task. */
    public String taskIds() {
        if (job.getArrayJobId() == 0) {
            return "N/A";
        }
        if (pendingTasks.isEmpty()) {
            return job.hasArrayTaskId() ? Integer.toString(job.getArrayTaskId()) : job.getArrayTaskSpec();
        }
        String ranges = IdRanges.format(pendingTasks);
        return job.getArrayMaxRunning() > 0 ? ranges + "%" + job.getArrayMaxRunning() : ranges;
    }


    /** The zone timestamps print in. */
    public ZoneId zone() {
        return zones.get();
    }

    /** Seconds the job has run ({@link #timeUsed}): squeue TIME, and TIME_LEFT's subtrahend. */
    public long secondsUsed() {
        return timeUsed(job, now);
    }

    /**
     * Seconds a job has run, as Slurm's {@code job_time_used}, time suspended excluded: the controller's
     * {@code time_used_seconds}, computed when it answered. From a controller that does not send it, the same from the
     * recorded times: 0 while pending or never started, up to {@code now} while running, up to the suspension in
     * progress while suspended, up to its end once finished, less the earlier suspensions.
     */
    public static long timeUsed(Job job, Instant now) {
        if (job.hasTimeUsedSeconds()) {
            return job.getTimeUsedSeconds();
        }
        Instant start = SlurmClock.instant(job.getStartTime());
        if (start == null || job.getState() == JobState.JOB_STATE_PENDING) {
            return 0;
        }
        Instant end = SlurmClock.instant(job.getEndTime());
        Instant until = switch (job.getState()) {
            case JOB_STATE_RUNNING -> now;
            case JOB_STATE_SUSPENDED -> job.hasLastStateChange() ? SlurmClock.instant(job.getLastStateChange()) : now;
            default -> end == null ? now : end;
        };
        return Math.max(0, Duration.between(start, until).getSeconds() - job.getSuspendSeconds());
    }

    /** The allocated nodes as a Slurm host list ("" when none). */
    public String nodeList() {
        if (!job.getNodeList().isEmpty()) {
            return job.getNodeList();
        }
        return job.getNodesCount() == 0 ? "" : Hostlist.compress(job.getNodesList());
    }

    /** The pending or failure reason; Slurm's "None" when the controller sent none. */
    public String reason() {
        return job.getReason().isEmpty() ? "None" : job.getReason();
    }

    /** The start time squeue sorts by: unknown sorts after now, a pending job's past estimate counts as now. */
    public Instant startForSort() {
        Instant start = SlurmClock.instant(job.getStartTime());
        if (start == null) {
            return now.plusSeconds(100);
        }
        if (job.getState() == JobState.JOB_STATE_PENDING && start.isBefore(now)) {
            return now;
        }
        return start;
    }
}
