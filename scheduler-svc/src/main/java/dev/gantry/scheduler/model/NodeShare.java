package dev.gantry.scheduler.model;

import java.util.List;

/**
 * Resources a job holds on one node.
 *
 * @param memoryMb MiB, 0 = memory not tracked
 * @param coreIds the cores held under CR_Core/CR_Socket (0-based, socket-major); empty when CPUs are only counted
 * @param gres generic resources held
 */
public record NodeShare(String node, int cpus, long memoryMb, List<Integer> coreIds, List<GresGrant> gres) {

    public NodeShare {
        coreIds = List.copyOf(coreIds);
        gres = List.copyOf(gres);
    }

    /** CPUs and memory only. */
    public NodeShare(String node, int cpus, long memoryMb) {
        this(node, cpus, memoryMb, List.of(), List.of());
    }
}
