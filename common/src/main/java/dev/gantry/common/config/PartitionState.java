package dev.gantry.common.config;

/**
 * A partition's State= (https://slurm.schedmd.com/slurm.conf.html#OPT_State_1): UP takes and starts jobs; DOWN takes
 * jobs but starts none; DRAIN starts the jobs it has but takes no new ones; INACTIVE neither takes nor starts jobs.
 */
public enum PartitionState {
    UP, DOWN, DRAIN, INACTIVE;

    /** Whether the partition's pending jobs may start (UP and DRAIN). */
    public boolean startsJobs() {
        return this == UP || this == DRAIN;
    }

    /** Whether the partition takes new jobs (UP and DOWN). */
    public boolean takesJobs() {
        return this == UP || this == DOWN;
    }
}
