package dev.gantry.select.model;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable copy of a {@link Replica} at one (epoch, revision): what one Plan call computes on. Nodes are
 * addressed by index (their order in the replica); partitions list their members by name.
 *
 * <p>Thread-safe (immutable).
 */
public final class ReplicaView {

    private final String epoch;
    private final long revision;
    private final SelectSettings settings;
    private final List<ClusterNode> nodes;
    private final Map<String, Integer> nodeIndex;
    private final Map<String, ClusterPartition> partitions;
    private final List<JobAllocation> allocations;
    private final Topology topology;
    private final Map<Object, Object> derived = new HashMap<>();
    private final int[] usedCpus;
    private final long[] usedMemoryMb;
    private final int[] jobs;

    /** Takes ownership of the arrays and collections: callers pass copies or immutable ones. */
    ReplicaView(String epoch, long revision, SelectSettings settings, List<ClusterNode> nodes,
                Map<String, Integer> nodeIndex, Map<String, ClusterPartition> partitions, List<JobAllocation> allocations,
                Topology topology, int[] usedCpus, long[] usedMemoryMb, int[] jobs) {
        this.epoch = epoch;
        this.revision = revision;
        this.settings = settings;
        this.nodes = nodes;
        this.nodeIndex = nodeIndex;
        this.partitions = partitions;
        this.allocations = allocations;
        this.topology = topology;
        this.usedCpus = usedCpus;
        this.usedMemoryMb = usedMemoryMb;
        this.jobs = jobs;
    }

    /**
     * A view built from domain values alone (tests, benchmarks, what-ifs): nodes in order, partitions by name.
     * A node named twice keeps its first position and its last description.
     */
    public static ReplicaView of(String epoch, long revision, SelectSettings settings, List<ClusterNode> nodes,
                                 List<ClusterPartition> partitions, List<JobAllocation> allocations, Topology topology) {
        Map<String, ClusterNode> unique = new LinkedHashMap<>();
        nodes.forEach(node -> unique.put(node.name(), node));
        List<ClusterNode> ordered = List.copyOf(unique.values());
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < ordered.size(); i++) {
            index.put(ordered.get(i).name(), i);
        }
        Map<String, ClusterPartition> byName = new LinkedHashMap<>();
        partitions.forEach(p -> byName.put(p.name(), p));
        int[] usedCpus = new int[ordered.size()];
        long[] usedMemoryMb = new long[ordered.size()];
        int[] jobs = new int[ordered.size()];
        for (JobAllocation allocation : allocations) {
            for (NodeAllotment share : allocation.nodes()) {
                Integer at = index.get(share.node());
                if (at != null) {
                    usedCpus[at] += share.cpus();
                    usedMemoryMb[at] += share.memoryMb();
                    jobs[at]++;
                }
            }
        }
        return new ReplicaView(epoch, revision, settings, ordered, Map.copyOf(index), Collections.unmodifiableMap(byName),
                List.copyOf(allocations), topology, usedCpus, usedMemoryMb, jobs);
    }

    /** The same view with another switch tree. */
    public ReplicaView withTopology(Topology topology) {
        return new ReplicaView(epoch, revision, settings, nodes, nodeIndex, partitions, allocations, topology,
                usedCpus, usedMemoryMb, jobs);
    }

    /** The same view with {@code partition} added or replaced (e.g. OverSubscribe settings in tests). */
    public ReplicaView withPartition(ClusterPartition partition) {
        Map<String, ClusterPartition> changed = new LinkedHashMap<>(partitions);
        changed.put(partition.name(), partition);
        return new ReplicaView(epoch, revision, settings, nodes, nodeIndex, Collections.unmodifiableMap(changed),
                allocations, topology, usedCpus, usedMemoryMb, jobs);
    }

    /**
     * A value computed from this (immutable) view once and shared by every later caller with the same key — e.g.
     * placement's base ledger, so a WillRun does not rebuild it. {@code compute} must be pure and its result must not
     * be changed by anyone. Thread-safe.
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, java.util.function.Function<ReplicaView, T> compute) {
        synchronized (derived) {
            Object value = derived.get(key);
            if (value == null) {
                value = compute.apply(this);
                derived.put(key, value);
            }
            return (T) value;
        }
    }

    /** Running and suspended jobs' allocations, in the order they arrived. */
    public List<JobAllocation> allocations() {
        return allocations;
    }

    public Topology topology() {
        return topology;
    }

    public String epoch() {
        return epoch;
    }

    public long revision() {
        return revision;
    }

    public SelectSettings settings() {
        return settings;
    }

    public int nodeCount() {
        return nodes.size();
    }

    public ClusterNode node(int index) {
        return nodes.get(index);
    }

    /** The index of the node named {@code name}, or -1 when the replica has no such node. */
    public int indexOf(String name) {
        return nodeIndex.getOrDefault(name, -1);
    }

    public Optional<ClusterPartition> partition(String name) {
        return Optional.ofNullable(partitions.get(name));
    }

    /** CPUs existing allocations hold on the node (may exceed its CPUs if scheduler-svc oversubscribed it). */
    public int usedCpus(int index) {
        return usedCpus[index];
    }

    /** MiB existing allocations hold on the node. */
    public long usedMemoryMb(int index) {
        return usedMemoryMb[index];
    }

    /** How many allocations (running or suspended) hold part of the node. */
    public int jobsOn(int index) {
        return jobs[index];
    }
}
