package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterNode;

/**
 * A node as the filter and scorer stages see it during one Plan: free resources count existing allocations and the
 * placements made earlier in the same Plan.
 *
 * @param index position in the replica (node order)
 * @param jobs  allocations and earlier placements holding part of it
 */
public record NodeCandidate(int index, ClusterNode node, long freeCpus, long freeMemoryMb, int jobs) {

    /** Nothing allocated on it at all. */
    public boolean idle() {
        return jobs == 0;
    }
}
