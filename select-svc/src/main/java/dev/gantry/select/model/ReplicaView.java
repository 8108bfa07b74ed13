package dev.gantry.select.model;

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
    private final int[] usedCpus;
    private final long[] usedMemoryMb;
    private final int[] jobs;

    /** Takes ownership of the arrays: callers pass copies. */
    ReplicaView(String epoch, long revision, SelectSettings settings, List<ClusterNode> nodes,
                Map<String, Integer> nodeIndex, Map<String, ClusterPartition> partitions,
                int[] usedCpus, long[] usedMemoryMb, int[] jobs) {
        this.epoch = epoch;
        this.revision = revision;
        this.settings = settings;
        this.nodes = nodes;
        this.nodeIndex = nodeIndex;
        this.partitions = partitions;
        this.usedCpus = usedCpus;
        this.usedMemoryMb = usedMemoryMb;
        this.jobs = jobs;
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
