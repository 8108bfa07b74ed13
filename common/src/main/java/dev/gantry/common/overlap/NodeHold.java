package dev.gantry.common.overlap;

import java.util.List;

/** What a job holds on one node: CPUs, and the specific cores (socket-major, 0-based; empty when only counted). */
public record NodeHold(String node, int cpus, List<Integer> coreIds) {

    public NodeHold {
        coreIds = List.copyOf(coreIds);
    }
}
