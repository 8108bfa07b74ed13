package dev.gantry.cli.model;

/**
 * A partition's State=, each named as Slurm prints it (UNKNOWN: a state the controller did not name, or this client
 * does not know).
 */
public enum PartitionStatus {
    UP, DOWN, DRAIN, INACTIVE, UNKNOWN
}
