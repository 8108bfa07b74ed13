package dev.gantry.select.placement;

/**
 * What one job needs on each node it gets, for a given node count.
 *
 * @param cpus      free CPUs each node must have (at least 1)
 * @param memoryMb  free MiB each node must have; 0 = memory not requested
 * @param wholeNode select/linear: the node must be idle, and the job takes all its CPUs
 */
public record NodeDemand(long cpus, long memoryMb, boolean wholeNode) {}
