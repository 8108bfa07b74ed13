package dev.gantry.select.runtime;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.Partition;
import dev.gantry.common.config.OverSubscribe;
import dev.gantry.common.config.PartitionState;
import dev.gantry.placement.Gres;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.placement.Owner;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.NodeState;
import dev.gantry.select.model.Replica;
import dev.gantry.select.model.ReplicaChange;
import dev.gantry.select.model.SelectMode;
import dev.gantry.select.model.SelectSettings;
import dev.gantry.select.model.Topology;
import java.time.Instant;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The event stream's messages as the replica's values: a snapshot as a {@link Replica}, each event as a
 * {@link ReplicaChange}. Counts the stream may carry out of range (negative CPUs, memory, GRES) are clamped to 0, as
 * the replica counts nothing below it. Stateless.
 */
public final class ReplicaInputs {
    private ReplicaInputs() {}

    /** The replica a snapshot describes. */
    public static Replica replica(String epoch, long revision, ClusterSnapshot snapshot) {
        List<ClusterNode> nodes = snapshot.getNodesList().stream().map(ReplicaInputs::node).toList();
        Map<String, Gres> gres = new HashMap<>();
        nodes.forEach(n -> gres.put(n.name(), n.gres())); // a node named twice: its last description, as the replica keeps
        Function<String, Gres> gresOf = name -> gres.getOrDefault(name, Gres.NONE);
        return Replica.of(epoch, revision,
                snapshot.hasSelect() ? settings(snapshot.getSelect()) : SelectSettings.DEFAULT,
                nodes,
                snapshot.getPartitionsList().stream().map(ReplicaInputs::partition).toList(),
                new Topology(snapshot.getTopology().getSwitchesList().stream()
                        .map(s -> new Topology.Switch(s.getName(), s.getSwitchesList(), s.getNodesList())).toList()),
                snapshot.getAllocationsList().stream().map(a -> allocation(a, gresOf)).toList());
    }

    /** Applies one event to {@code replica} (see {@link Replica#apply}; a snapshot is refused, see {@link #change}). */
    public static void apply(Replica replica, ClusterEvent event) {
        replica.apply(event.getEpoch(), event.getRevision(), change(event, replica::gresOf));
    }

    /**
     * What an event changes; an allocation's GRES are counted against {@code gresOf} its nodes (the replica's pools).
     *
     * @throws IllegalArgumentException for a snapshot, which replaces the replica rather than being applied to it
     */
    public static ReplicaChange change(ClusterEvent event, Function<String, Gres> gresOf) {
        return switch (event.getEventCase()) {
            case NODE_CHANGED -> new ReplicaChange.NodeChanged(node(event.getNodeChanged()));
            case ALLOCATION_ADDED -> new ReplicaChange.AllocationPut(allocation(event.getAllocationAdded(), gresOf));
            case ALLOCATION_CHANGED -> new ReplicaChange.AllocationPut(allocation(event.getAllocationChanged(), gresOf));
            case ALLOCATION_RELEASED -> new ReplicaChange.AllocationReleased(event.getAllocationReleased());
            case EVENT_NOT_SET -> new ReplicaChange.Unrelated();
            case SNAPSHOT -> throw new IllegalArgumentException("a snapshot replaces the replica; it is not applied to it");
        };
    }

    public static ClusterNode node(Node node) {
        Gres gres = new Gres(node.getGresList().stream()
                .filter(g -> !g.getName().isBlank() && g.getCount() >= 0)
                .map(g -> new GresPool(g.getName(), g.getType(), (int) Math.min(Integer.MAX_VALUE, g.getCount())))
                .toList());
        return new ClusterNode(node.getName(), Math.max(0, node.getCpus()), Math.max(0, node.getSockets()),
                Math.max(0, node.getCoresPerSocket()), Math.max(0, node.getThreadsPerCore()),
                Math.max(0, node.getRealMemoryMb()), node.getWeight(), Set.copyOf(node.getFeaturesList()), gres,
                state(node.getState()), node.getDrain(), node.getNotResponding());
    }

    static NodeState state(dev.gantry.api.v1.NodeState state) {
        return switch (state) {
            case NODE_STATE_IDLE -> NodeState.IDLE;
            case NODE_STATE_MIXED -> NodeState.MIXED;
            case NODE_STATE_ALLOCATED -> NodeState.ALLOCATED;
            case NODE_STATE_DOWN -> NodeState.DOWN;
            default -> NodeState.UNKNOWN;
        };
    }

    public static ClusterPartition partition(Partition partition) {
        OverSubscribe oversubscribe = switch (partition.getOverSubscribe()) {
            case OVER_SUBSCRIBE_YES -> new OverSubscribe(OverSubscribe.Kind.YES, Math.max(1, partition.getOverSubscribeJobs()));
            case OVER_SUBSCRIBE_FORCE -> new OverSubscribe(OverSubscribe.Kind.FORCE, Math.max(1, partition.getOverSubscribeJobs()));
            case OVER_SUBSCRIBE_EXCLUSIVE -> new OverSubscribe(OverSubscribe.Kind.EXCLUSIVE, 1);
            default -> OverSubscribe.NO;
        };
        MemoryLimits memory = new MemoryLimits(Math.max(0, partition.getDefMemPerCpuMb()),
                Math.max(0, partition.getDefMemPerNodeMb()), Math.max(0, partition.getMaxMemPerCpuMb()),
                Math.max(0, partition.getMaxMemPerNodeMb()));
        return new ClusterPartition(partition.getName(), state(partition.getState()), partition.getNodesList(),
                oversubscribe, memory, partition.getPriorityTier(), partition.getExclusiveUser());
    }

    static PartitionState state(dev.gantry.api.v1.PartitionState state) {
        return switch (state) {
            case PARTITION_STATE_UP -> PartitionState.UP;
            case PARTITION_STATE_DRAIN -> PartitionState.DRAIN;
            case PARTITION_STATE_INACTIVE -> PartitionState.INACTIVE;
            // An unset or unknown state starts nothing: placing jobs there would be a guess.
            case PARTITION_STATE_DOWN, PARTITION_STATE_UNSPECIFIED, UNRECOGNIZED -> PartitionState.DOWN;
        };
    }

    public static SelectSettings settings(dev.gantry.api.v1.SelectSettings settings) {
        return new SelectSettings(SelectMode.fromSelectType(settings.getSelectType()), settings.getSelectTypeParameters());
    }

    /** An allocation, its GRES counted against each node's pools ({@code gresOf} a node name). */
    public static JobAllocation allocation(Allocation allocation, Function<String, Gres> gresOf) {
        Instant end = allocation.hasEndTime()
                ? Instant.ofEpochSecond(allocation.getEndTime().getSeconds(), allocation.getEndTime().getNanos()) : null;
        return new JobAllocation(allocation.getJobId(), allocation.getPartition(),
                allocation.getNodesList().stream().map(a -> share(a, gresOf.apply(a.getNode()))).toList(),
                allocation.getSuspended(), end, allocation.getExclusive(),
                new Owner(allocation.getUser(), allocation.getExclusiveUser()));
    }

    /**
     * The share an API allocation describes: its core ids as units (empty under CR_CPU and select/linear, where the
     * replica assigns units), and its GRES counted against {@code nodeGres} ({@link NodeAllotment#gresByPool}).
     */
    public static NodeAllotment share(NodeAllocation allocation, Gres nodeGres) {
        BitSet units = new BitSet();
        allocation.getCoreIdsList().stream().filter(id -> id >= 0).forEach(units::set);
        List<GresPool> held = allocation.getGresList().stream()
                .filter(g -> !g.getName().isBlank()) // matches no pool
                .map(g -> new GresPool(g.getName(), g.getType(), (int) Math.min(Integer.MAX_VALUE, Math.max(0, g.getCount()))))
                .toList();
        return new NodeAllotment(allocation.getNode(), Math.max(0, allocation.getCpus()), Math.max(0, allocation.getMemoryMb()),
                units, NodeAllotment.gresByPool(held, nodeGres));
    }
}
