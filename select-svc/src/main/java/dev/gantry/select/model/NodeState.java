package dev.gantry.select.model;

/**
 * A node's base state as scheduler-svc reports it (https://slurm.schedmd.com/sinfo.html#SECTION_NODE-STATE-CODES).
 * DRAIN/DRAINING and not-responding are flags on {@link ClusterNode}; MIXED and ALLOCATED follow from allocations.
 */
public enum NodeState {
    UNKNOWN, IDLE, MIXED, ALLOCATED, DOWN, FUTURE;

    /** Up: new jobs may start here unless the node is drained or not responding. */
    public boolean up() {
        return this == IDLE || this == MIXED || this == ALLOCATED;
    }
}
