package dev.gantry.select.placement;

import dev.gantry.placement.ResourceUnit;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ReplicaView;

/**
 * A view's nodes as flat arrays (by node index): what a reservation search asks of every node it meets, without
 * following a pointer per node. Made once per view ({@link ReplicaView#derived}); immutable.
 */
record NodeHardware(int[] cpus, long[] memoryMb, boolean[] usable, int[] cpusPerCore) {

    static NodeHardware of(ReplicaView view) {
        int n = view.nodeCount();
        int[] cpus = new int[n];
        long[] memory = new long[n];
        boolean[] usable = new boolean[n];
        int[] perCore = new int[n];
        for (int i = 0; i < n; i++) {
            ClusterNode node = view.node(i);
            cpus[i] = node.cpus();
            memory[i] = node.realMemoryMb();
            usable[i] = node.usable();
            perCore[i] = Math.max(1, node.cpusPerCore());
        }
        return new NodeHardware(cpus, memory, usable, perCore);
    }

    /** Whether {@code node} is usable and has {@code cpuCount} CPUs and {@code memory} MiB (no constraint, no GRES). */
    boolean fits(int node, long cpuCount, long memory) {
        return usable[node] && cpus[node] >= cpuCount && memoryMb[node] >= memory;
    }

    /** The CPUs a demand of {@code cpus} takes on {@code node}, rounded to whole units as {@code unit} counts them. */
    long taken(ResourceUnit unit, int node, long cpus, boolean wholeNode) {
        if (wholeNode) {
            return this.cpus[node];
        }
        return switch (unit) {
            case NODE -> cpus > 0 ? this.cpus[node] : 0;
            case CORE -> Math.ceilDiv(cpus, cpusPerCore[node]) * cpusPerCore[node];
            case CPU -> cpus;
        };
    }
}
