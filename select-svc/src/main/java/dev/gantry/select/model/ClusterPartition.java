package dev.gantry.select.model;

import dev.gantry.common.config.OverSubscribe;
import dev.gantry.common.config.PartitionState;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.placement.Owner;
import java.util.List;

/**
 * A partition: its state, member nodes in config order (the order ties are broken in), OverSubscribe, memory limits,
 * PriorityTier and ExclusiveUser (every job in it is user-exclusive, see {@link Owner}).
 */
public record ClusterPartition(String name, PartitionState state, List<String> nodes, OverSubscribe oversubscribe,
                               MemoryLimits memory, int priorityTier, boolean exclusiveUser) {

    public ClusterPartition {
        nodes = List.copyOf(nodes);
    }

    /** ExclusiveUser=NO. */
    public ClusterPartition(String name, PartitionState state, List<String> nodes, OverSubscribe oversubscribe,
                            MemoryLimits memory, int priorityTier) {
        this(name, state, nodes, oversubscribe, memory, priorityTier, false);
    }

    /** OverSubscribe=NO, no memory limits, PriorityTier=1. */
    public ClusterPartition(String name, PartitionState state, List<String> nodes) {
        this(name, state, nodes, OverSubscribe.NO, MemoryLimits.NONE, 1);
    }

    public ClusterPartition withOversubscribe(OverSubscribe oversubscribe) {
        return new ClusterPartition(name, state, nodes, oversubscribe, memory, priorityTier, exclusiveUser);
    }

    public ClusterPartition withMemory(MemoryLimits memory) {
        return new ClusterPartition(name, state, nodes, oversubscribe, memory, priorityTier, exclusiveUser);
    }

    public ClusterPartition withExclusiveUser(boolean exclusiveUser) {
        return new ClusterPartition(name, state, nodes, oversubscribe, memory, priorityTier, exclusiveUser);
    }
}
