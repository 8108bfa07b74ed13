package dev.gantry.cli.model;

/**
 * A job's base state, as Slurm's job_state_string (COMPLETING is {@link JobInfo#completing}, a flag). UNKNOWN stands
 * for a state the controller did not name or that this client does not know: the commands print it as Slurm prints an
 * unknown state.
 */
public enum JobStatus {
    PENDING, RUNNING, SUSPENDED, COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, PREEMPTED, OUT_OF_MEMORY, UNKNOWN
}
