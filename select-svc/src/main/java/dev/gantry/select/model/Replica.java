package dev.gantry.select.model;

import dev.gantry.common.events.EventOrder;
import dev.gantry.placement.Gres;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * select-svc's replica of scheduler-svc's state at one (epoch, revision): nodes, partitions, allocations and
 * select settings, plus the CPUs and memory the allocations use on each node (suspended ones included).
 *
 * <p>Built from a snapshot, then advanced one event at a time with {@link #apply}; the runtime maps the stream's
 * messages to the values these take. {@link #view()} hands out an immutable copy for placement, so a Plan never sees
 * (or causes) a change.
 *
 * <p>Not thread-safe: one thread applies events; others only see {@link ReplicaView}s it made.
 */
public final class Replica {

    private final EventOrder order;
    private final SelectSettings settings;
    private final Map<String, ClusterPartition> partitions;
    private final Map<Long, JobAllocation> allocations = new LinkedHashMap<>();
    private Topology topology = Topology.NONE;
    // The last view handed out, reused until the next change so derived values (base ledger) are computed once.
    private ReplicaView lastView;
    // Copy-on-write: replaced, never modified, so views share them.
    private List<ClusterNode> nodes;
    private Map<String, Integer> nodeIndex;
    // Usage per node index; views copy these.
    private int[] usedCpus;
    private long[] usedMemoryMb;
    private int[] jobs;

    private Replica(String epoch, long revision, SelectSettings settings, List<ClusterNode> nodes,
                    Map<String, ClusterPartition> partitions) {
        this.order = new EventOrder(epoch, revision);
        this.settings = settings;
        this.nodes = List.copyOf(nodes);
        this.partitions = Collections.unmodifiableMap(partitions);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i).name(), i);
        }
        this.nodeIndex = Map.copyOf(index);
        this.usedCpus = new int[nodes.size()];
        this.usedMemoryMb = new long[nodes.size()];
        this.jobs = new int[nodes.size()];
    }

    /**
     * The replica a snapshot describes. A node (or partition) named twice keeps its first position and its last
     * description.
     *
     * @param allocations with their GRES counted against the pools of these nodes (the last description of each)
     */
    public static Replica of(String epoch, long revision, SelectSettings settings, List<ClusterNode> nodes,
                             List<ClusterPartition> partitions, Topology topology, List<JobAllocation> allocations) {
        Map<String, ClusterNode> byName = new LinkedHashMap<>();
        for (ClusterNode node : nodes) {
            byName.put(node.name(), node);
        }
        Map<String, ClusterPartition> partitionsByName = new LinkedHashMap<>();
        for (ClusterPartition partition : partitions) {
            partitionsByName.put(partition.name(), partition);
        }
        Replica replica = new Replica(epoch, revision, settings, List.copyOf(byName.values()), partitionsByName);
        allocations.forEach(replica::putAllocation);
        replica.setTopology(topology);
        return replica;
    }

    /**
     * Applies one change. Node and allocation events are upserts and a release of an unknown job does nothing, so
     * re-adopted jobs and repeated releases are harmless.
     *
     * @param eventEpoch    the epoch of the event that carried the change
     * @param eventRevision its revision
     * @throws IllegalArgumentException for another epoch, or a revision not after the replica's; the replica is then
     *                                  unchanged
     */
    public void apply(String eventEpoch, long eventRevision, ReplicaChange change) {
        order.apply(eventEpoch, eventRevision, () -> applyChange(change));
        lastView = null;
    }

    /** The GRES pools of a node, none for an unknown one: what an allocation's GRES are counted against. */
    public Gres gresOf(String node) {
        Integer at = nodeIndex.get(node);
        return at == null ? Gres.NONE : nodes.get(at).gres();
    }

    /**
     * An immutable copy for Plan calls: O(nodes) to make, shares the node and partition lists; the same instance until
     * the replica next changes.
     */
    public ReplicaView view() {
        if (lastView != null) {
            return lastView;
        }
        return lastView = new ReplicaView(order.epoch(), order.revision(), settings, nodes, nodeIndex, partitions, List.copyOf(allocations.values()),
                topology, usedCpus.clone(), usedMemoryMb.clone(), jobs.clone());
    }

    /** Replaces the switch tree (from the snapshot's topology, once scheduler-svc sends it). */
    public void setTopology(Topology topology) {
        this.topology = topology;
        this.lastView = null;
    }

    public String epoch() {
        return order.epoch();
    }

    public long revision() {
        return order.revision();
    }

    public Optional<JobAllocation> allocation(long jobId) {
        return Optional.ofNullable(allocations.get(jobId));
    }

    public int allocationCount() {
        return allocations.size();
    }

    private ClusterNode node(String name) {
        Integer at = nodeIndex.get(name);
        return at == null ? null : nodes.get(at);
    }

    private void applyChange(ReplicaChange change) {
        switch (change) {
            case ReplicaChange.NodeChanged c -> putNode(c.node());
            case ReplicaChange.AllocationPut c -> putAllocation(c.allocation());
            case ReplicaChange.AllocationReleased c -> removeAllocation(c.jobId());
            case ReplicaChange.Unrelated c -> { } // a kind this build does not know: nothing select cares about
        }
    }

    private void putNode(ClusterNode node) {
        Integer at = nodeIndex.get(node.name());
        if (at != null) {
            nodes = Stream.concat(Stream.concat(nodes.subList(0, at).stream(), Stream.of(node)),
                    nodes.subList(at + 1, nodes.size()).stream()).toList();
            return;
        }
        int index = nodes.size();
        nodes = Stream.concat(nodes.stream(), Stream.of(node)).toList();
        Map<String, Integer> grown = new HashMap<>(nodeIndex);
        grown.put(node.name(), index);
        nodeIndex = Map.copyOf(grown);
        usedCpus = Arrays.copyOf(usedCpus, index + 1);
        usedMemoryMb = Arrays.copyOf(usedMemoryMb, index + 1);
        jobs = Arrays.copyOf(jobs, index + 1);
        // Allocations may name a node before its description arrives.
        for (JobAllocation allocation : allocations.values()) {
            count(allocation, +1, node.name());
        }
    }

    private void putAllocation(JobAllocation allocation) {
        removeAllocation(allocation.jobId());
        allocations.put(allocation.jobId(), allocation);
        count(allocation, +1, null);
    }

    private void removeAllocation(long jobId) {
        JobAllocation old = allocations.remove(jobId);
        if (old != null) {
            count(old, -1, null);
        }
    }

    /** Adds ({@code sign} +1) or removes (-1) an allocation's usage, on every node or only on {@code onlyNode}. */
    private void count(JobAllocation allocation, int sign, String onlyNode) {
        for (NodeAllotment share : allocation.nodes()) {
            Integer at = nodeIndex.get(share.node());
            if (at == null || (onlyNode != null && !onlyNode.equals(share.node()))) {
                continue;
            }
            usedCpus[at] += sign * share.cpus();
            usedMemoryMb[at] += sign * share.memoryMb();
            jobs[at] += sign;
        }
    }
}
