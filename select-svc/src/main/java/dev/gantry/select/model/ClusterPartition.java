package dev.gantry.select.model;

import dev.gantry.api.v1.Partition;
import dev.gantry.common.config.OverSubscribe;
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

    public static ClusterPartition from(Partition partition) {
        OverSubscribe oversubscribe = switch (partition.getOverSubscribe()) {
            case OVER_SUBSCRIBE_YES -> new OverSubscribe(OverSubscribe.Kind.YES, Math.max(1, partition.getOverSubscribeJobs()));
            case OVER_SUBSCRIBE_FORCE -> new OverSubscribe(OverSubscribe.Kind.FORCE, Math.max(1, partition.getOverSubscribeJobs()));
            case OVER_SUBSCRIBE_EXCLUSIVE -> new OverSubscribe(OverSubscribe.Kind.EXCLUSIVE, 1);
            default -> OverSubscribe.NO;
        };
        MemoryLimits memory = new MemoryLimits(Math.max(0, partition.getDefMemPerCpuMb()),
                Math.max(0, partition.getDefMemPerNodeMb()), Math.max(0, partition.getMaxMemPerCpuMb()),
                Math.max(0, partition.getMaxMemPerNodeMb()));
        return new ClusterPartition(partition.getName(), PartitionState.from(partition.getState()), partition.getNodesList(),
                oversubscribe, memory, partition.getPriorityTier(), partition.getExclusiveUser());
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
