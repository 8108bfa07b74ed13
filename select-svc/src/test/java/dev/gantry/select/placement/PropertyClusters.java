package dev.gantry.select.placement;

import dev.gantry.placement.Gres;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeState;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import dev.gantry.select.model.SelectSettings;
import dev.gantry.select.model.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

/** The random clusters of the placement property tests: nodes n0, n1, … and their partitions. */
final class PropertyClusters {
    private PropertyClusters() {}

    /** One node: its layout, memory and GPUs (gpu:a100:N plus one gpu:v100 when it has any). */
    record NodeSpec(int sockets, int cores, int threads, long memoryMb, int gpus) {}

    /**
     * @param partitions the partitions, given every node's name and every other one's (n0, n2, …)
     */
    static ReplicaView view(String parameters, boolean linear, List<NodeSpec> specs,
            BiFunction<List<String>, List<String>, List<ClusterPartition>> partitions, List<JobAllocation> allocations) {
        List<ClusterNode> nodes = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            NodeSpec n = specs.get(i);
            nodes.add(new ClusterNode("n" + i, n.sockets() * n.cores() * n.threads(), n.sockets(), n.cores(), n.threads(),
                    n.memoryMb(), 1, Set.of(), n.gpus() == 0 ? Gres.NONE : Gres.parse("gpu:a100:" + n.gpus() + ",gpu:v100:1"),
                    NodeState.IDLE, false, false));
        }
        List<String> names = nodes.stream().map(ClusterNode::name).toList();
        List<String> half = IntStream.range(0, names.size()).filter(i -> i % 2 == 0).mapToObj(names::get).toList();
        return ReplicaView.of("e", 1, new SelectSettings(linear ? SelectMode.LINEAR : SelectMode.CONS_TRES, parameters),
                nodes, partitions.apply(names, half), allocations, Topology.NONE);
    }
}
