package dev.gantry.agent.job;

import java.util.List;

/**
 * What a node other than the batch host runs for a multi-node job: the batch script runs on the batch host only
 * (as in Slurm); every other node of the allocation holds its part of the job — its prolog has run (Slurm's
 * {@code PrologFlags=Alloc}), its cgroup exists with the job's memory limit and core binding — with one small
 * process that lives until the job is terminated there (Slurm's "extern" step). It writes no output: the job's
 * output files belong to the batch host.
 */
public final class AllocationHolder {

    /** The holder's script: it sleeps until the kill sequence ends it. */
    public static final String SCRIPT = "#!/bin/sh\n# holds job's allocation on this node until the job ends\nexec sleep infinity\n";

    private AllocationHolder() {}

    /** The order this node runs instead of {@code batch}: same job, user, limits and environment; the holder script. */
    public static LaunchOrder of(LaunchOrder batch) {
        return new LaunchOrder(batch.jobId(), batch.jobName(), SCRIPT, List.of(), "/", "/dev/null", "/dev/null",
                batch.environment(), batch.partition(), batch.numTasks(), batch.cpusOnNode(), batch.memoryMb(),
                batch.submitDir(), batch.submitHost(), batch.timeLimitSeconds(), batch.coreIds(), batch.array(),
                batch.account(), batch.qos(), batch.restartCount(), batch.startSuspended());
    }
}
