package dev.gantry.gang.model;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Partition;
import dev.gantry.common.events.EventOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * gang-svc's replica at one (epoch, revision): for each partition, the jobs holding resources there in allocation
 * order, and whether each is suspended, as the controller reports them. It checks that events follow (epoch,
 * revision) and feeds the gauges; the rotation itself is {@link dev.gantry.gang.slice.Timeslicer}'s.
 *
 * <p>Built from a snapshot, then advanced one event at a time with {@link #apply}. Not thread-safe: one thread
 * applies events; others see {@link GangView}s it made.
 */
public final class GangReplica {

    /** Allocation order for a snapshot: start time, then job id (the stable tie-break). */
    private static final Comparator<Allocation> ALLOCATION_ORDER = Comparator
            .comparingLong((Allocation a) -> a.getStartTime().getSeconds())
            .thenComparingInt(a -> a.getStartTime().getNanos())
            .thenComparingLong(Allocation::getJobId);

    private final String epoch;
    private long revision;
    /** Partition name → job id → suspended, in allocation order. Partitions sorted by name. */
    private final Map<String, LinkedHashMap<Long, Boolean>> partitions = new TreeMap<>();
    private final Map<Long, String> partitionOfJob = new HashMap<>();

    private GangReplica(String epoch, long revision) {
        this.epoch = epoch;
        this.revision = revision;
    }

    /** The replica a snapshot describes: its partitions (even empty ones) and its allocations. */
    public static GangReplica fromSnapshot(String epoch, long revision, ClusterSnapshot snapshot) {
        GangReplica replica = new GangReplica(epoch, revision);
        for (Partition partition : snapshot.getPartitionsList()) {
            replica.partitions.computeIfAbsent(partition.getName(), name -> new LinkedHashMap<>());
        }
        snapshot.getAllocationsList().stream().sorted(ALLOCATION_ORDER).forEach(replica::put);
        return replica;
    }

    /** Whether applying {@code event} counts as an allocation event (added, changed or released). */
    public static boolean isAllocationEvent(ClusterEvent event) {
        return switch (event.getEventCase()) {
            case ALLOCATION_ADDED, ALLOCATION_CHANGED, ALLOCATION_RELEASED -> true;
            case NODE_CHANGED, SNAPSHOT, EVENT_NOT_SET -> false;
        };
    }

    /**
     * Applies one change. An added or changed job keeps its place if already known (a re-adopted job is not
     * reordered); a new one, or one that moved partition, goes last. Releasing an unknown job does nothing.
     *
     * @throws IllegalArgumentException for a snapshot, another epoch, or a revision not after the replica's; the
     *                                  replica is then unchanged
     */
    public void apply(ClusterEvent event) {
        EventOrder.requireNext(epoch, revision, event);
        switch (event.getEventCase()) {
            case ALLOCATION_ADDED -> put(event.getAllocationAdded());
            case ALLOCATION_CHANGED -> put(event.getAllocationChanged());
            case ALLOCATION_RELEASED -> remove(event.getAllocationReleased());
            case NODE_CHANGED, SNAPSHOT, EVENT_NOT_SET -> { } // nodes do not change who shares a partition
        }
        revision = event.getRevision();
    }

    public GangView view() {
        List<PartitionJobs> view = new ArrayList<>(partitions.size());
        partitions.forEach((name, jobs) -> view.add(new PartitionJobs(name, List.copyOf(jobs.keySet()),
                jobs.entrySet().stream().filter(job -> !job.getValue()).map(Map.Entry::getKey).toList())));
        return new GangView(epoch, revision, view);
    }

    public String epoch() {
        return epoch;
    }

    public long revision() {
        return revision;
    }

    private void put(Allocation allocation) {
        String previous = partitionOfJob.get(allocation.getJobId());
        if (previous != null && !previous.equals(allocation.getPartition())) {
            remove(allocation.getJobId());
        }
        partitions.computeIfAbsent(allocation.getPartition(), name -> new LinkedHashMap<>())
                .put(allocation.getJobId(), allocation.getSuspended());
        partitionOfJob.put(allocation.getJobId(), allocation.getPartition());
    }

    private void remove(long jobId) {
        String partition = partitionOfJob.remove(jobId);
        if (partition != null) {
            partitions.get(partition).remove(jobId);
        }
    }
}
