package dev.gantry.select.model;

/** A partition's State= (https://slurm.schedmd.com/slurm.conf.html#OPT_State_1), as far as placement cares. */
public enum PartitionState {
    UP,
    /** Accepts jobs but starts none. */
    DOWN,
    /** Refuses new jobs but still starts queued ones. */
    DRAIN,
    /** Neither accepts nor starts jobs. */
    INACTIVE;

    /** Whether queued jobs may start in a partition in this state. */
    public boolean startsJobs() {
        return this == UP || this == DRAIN;
    }
}
