package dev.gantry.agent.job;

/** Where a job on this node is in its life; it leaves the node's table once its exit is handed to the reporter. */
public enum AgentJobState {
    /** Credential accepted, files being prepared, process not yet started. */
    STARTING,
    RUNNING,
    /** Stopped in place (SIGSTOP to its group). */
    SUSPENDED,
    /** TerminateJob came: SIGTERM sent, SIGKILL scheduled after the kill wait. */
    TERMINATING,
    /** The batch script has exited; the rest of its group is being killed and waited for. */
    ENDING;

    /** The label of the jobs gauge: running or suspended (a job being started is not counted yet). */
    public String metricLabel() {
        return this == SUSPENDED ? "suspended" : "running";
    }
}
