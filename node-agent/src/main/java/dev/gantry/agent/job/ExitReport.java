package dev.gantry.agent.job;

import java.time.Instant;

/**
 * What the agent reports once a job's batch script has ended and none of its processes is left.
 *
 * @param reason why it ended when it did not end by itself (terminated, and why), else empty
 * @param cpuSeconds best effort: the largest sampled user+system CPU time of the job's processes, in seconds
 * @param maxRssKb best effort: the largest sampled resident set of the job's processes together, in KiB
 * @param outOfMemory the kernel killed a process of the job for exceeding its memory limit (OUT_OF_MEMORY)
 * @param run the run that ended (its restart count), {@link JobRun#UNKNOWN} when not known (then not named)
 */
public record ExitReport(
        long jobId,
        ExitStatus status,
        String reason,
        double cpuSeconds,
        long maxRssKb,
        Instant startedAt,
        Instant endedAt,
        boolean outOfMemory,
        int run) {

    /** The exit of a job whose run is not known. */
    public ExitReport(long jobId, ExitStatus status, String reason, double cpuSeconds, long maxRssKb, Instant startedAt,
            Instant endedAt, boolean outOfMemory) {
        this(jobId, status, reason, cpuSeconds, maxRssKb, startedAt, endedAt, outOfMemory, JobRun.UNKNOWN);
    }
}
