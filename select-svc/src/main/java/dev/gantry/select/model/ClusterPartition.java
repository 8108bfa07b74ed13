package dev.gantry.select.model;

import dev.gantry.api.v1.Partition;
import java.util.List;

/** A partition: its state and member nodes in config order (the order ties are broken in). */
public record ClusterPartition(String name, PartitionState state, List<String> nodes) {

    public ClusterPartition {
        nodes = List.copyOf(nodes);
    }

    public static ClusterPartition from(Partition partition) {
        return new ClusterPartition(partition.getName(), PartitionState.from(partition.getState()), partition.getNodesList());
    }
}
