package dev.gantry.cli.model;

import java.util.List;

/**
 * What a job holds on one node (scontrol -d show job).
 *
 * @param node the node's name
 * @param memoryMb MiB held there
 * @param coreIds the cores held (socket-major, 0-based); empty when the allocation counts CPUs only
 * @param gres the generic resources held there
 */
public record NodeAllocation(String node, long memoryMb, List<Integer> coreIds, List<GresInfo> gres) {

    public NodeAllocation {
        coreIds = List.copyOf(coreIds);
        gres = List.copyOf(gres);
    }
}
