package dev.gantry.cli.squeue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.function.Supplier;

/**
 * A job as squeue sees it at one instant: the derived values its fields and sort keys share.
 *
 * @param job the controller's record
 * @param now when the report is made (TIME and TIME_LEFT count up to it)
 * @param zones the zone timestamps print in, asked for only when a timestamp is printed
 */
public record JobView(Job job, Instant now, Supplier<ZoneId> zones) {

    /** A view printing timestamps in {@code zone}. */
    public JobView(Job job, Instant now, ZoneId zone) {
        this(job, now, () -> zone);
    }

    /** The zone timestamps print in. */
    public ZoneId zone() {
        return zones.get();
    }

    /**
     * Seconds the job has run, as Slurm's {@code job_time_used}: 0 while pending or never started,
     * up to now while running (or suspended: Gantry does not report the time spent suspended),
     * up to its end once finished.
     */
    public long secondsUsed() {
        Instant start = SlurmClock.instant(job.getStartTime());
        if (start == null || job.getState() == JobState.JOB_STATE_PENDING) {
            return 0;
        }
        Instant end = SlurmClock.instant(job.getEndTime());
        boolean stillRunning = job.getState() == JobState.JOB_STATE_RUNNING
                || job.getState() == JobState.JOB_STATE_SUSPENDED;
        Instant until = stillRunning || end == null ? now : end;
        return Math.max(0, Duration.between(start, until).getSeconds());
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
