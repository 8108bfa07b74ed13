package dev.gantry.scheduler.model;

/** A job's base state, as Slurm's (COMPLETING is a flag on {@link JobRecord}). */
public enum JobState {
    PENDING, RUNNING, SUSPENDED, COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, PREEMPTED, OUT_OF_MEMORY;

    /** True once the job will never run again. */
    public boolean isFinished() {
        return switch (this) {
            case PENDING, RUNNING, SUSPENDED -> false;
            default -> true;
        };
    }

    /** True while the job holds resources. */
    public boolean holdsResources() {
        return this == RUNNING || this == SUSPENDED;
    }
}
