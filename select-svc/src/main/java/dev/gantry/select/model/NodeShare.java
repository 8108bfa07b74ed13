package dev.gantry.select.model;

/** Resources one job holds (or is planned to get) on one node: CPUs and MiB of memory (0 = memory not tracked). */
public record NodeShare(String node, int cpus, long memoryMb) {

    public static NodeShare from(dev.gantry.api.v1.NodeAllocation allocation) {
        return new NodeShare(allocation.getNode(), Math.max(0, allocation.getCpus()), Math.max(0, allocation.getMemoryMb()));
    }
}
