package dev.gantry.agent.job;

/**
 * One run of a job on this node: a job can run several times (requeue, preemption, node failure), and its run is its
 * restart count (LaunchJobRequest.restart_count). {@link #UNKNOWN}: a job re-adopted from a job table that did not
 * record its run; its messages then name no run, which the controller takes as the current one.
 */
public record JobRun(long jobId, int run) {

    public static final int UNKNOWN = -1;

    /** Whether the run is known (to be named in messages). */
    public boolean named() {
        return run != UNKNOWN;
    }
}
