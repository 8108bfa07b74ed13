package dev.gantry.agent.process;

import dev.gantry.agent.job.JobRun;

/**
 * A running job's resource use so far, for heartbeats (accounting) and the per-partition gauges.
 *
 * @param cpuSeconds largest sampled user + system CPU time so far
 * @param maxRssKb largest sampled resident memory so far
 * @param rssKb resident memory at the latest sample
 */
public record UsageSample(long jobId, String partition, double cpuSeconds, long maxRssKb, long rssKb, int run) {

    /** A sample of a job whose run is not known ({@link JobRun#UNKNOWN}). */
    public UsageSample(long jobId, String partition, double cpuSeconds, long maxRssKb, long rssKb) {
        this(jobId, partition, cpuSeconds, maxRssKb, rssKb, JobRun.UNKNOWN);
    }
}
