package dev.gantry.cli.model;

/**
 * A node's base state, as Slurm's node_state_string (DRAIN and NOT_RESPONDING are flags on {@link NodeInfo}).
 * UNKNOWN is also what a state the controller did not name, or this client does not know, reads as.
 */
public enum NodeStatus {
    UNKNOWN, IDLE, MIXED, ALLOCATED, DOWN
}
