package dev.gantry.gang.model;

import dev.gantry.common.events.EventOrder;
import java.util.ArrayList;
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
 * <p>Built from a snapshot, then advanced one event at a time with {@link #apply}. The runtime maps the stream's
 * messages to {@link HeldAllocation}s and {@link GangChange}s (and puts a snapshot's allocations in allocation order). Not
 * thread-safe: one thread applies events; others see {@link GangView}s it made.
 */
public final class GangReplica {

    private final EventOrder order;
    /** Partition name → job id → suspended, in allocation order. Partitions sorted by name. */
    private final Map<String, LinkedHashMap<Long, Boolean>> partitions = new TreeMap<>();
    private final Map<Long, String> partitionOfJob = new HashMap<>();

    private GangReplica(String epoch, long revision) {
        this.order = new EventOrder(epoch, revision);
    }

    /**
     * The replica a snapshot describes: its partitions (even empty ones) and its allocations.
     *
     * @param allocations in allocation order (start time, then job id), the order each partition's list keeps
     */
    public static GangReplica fromSnapshot(String epoch, long revision, List<String> partitions, List<HeldAllocation> allocations) {
        GangReplica replica = new GangReplica(epoch, revision);
        for (String partition : partitions) {
            replica.partitions.computeIfAbsent(partition, name -> new LinkedHashMap<>());
        }
        allocations.forEach(replica::put);
        return replica;
    }

    /**
     * Applies one change. An added or changed job keeps its place if already known (a re-adopted job is not
     * reordered); a new one, or one that moved partition, goes last. Releasing an unknown job does nothing.
     *
     * @param eventEpoch    the epoch of the event that carried the change
     * @param eventRevision its revision
     * @throws IllegalArgumentException for another epoch, or a revision not after the replica's; the replica is then
     *                                  unchanged
     */
    public void apply(String eventEpoch, long eventRevision, GangChange change) {
        order.apply(eventEpoch, eventRevision, () -> applyChange(change));
    }

    public GangView view() {
        List<PartitionJobs> view = new ArrayList<>(partitions.size());
        partitions.forEach((name, jobs) -> view.add(new PartitionJobs(name, List.copyOf(jobs.keySet()),
                jobs.entrySet().stream().filter(job -> !job.getValue()).map(Map.Entry::getKey).toList())));
        return new GangView(order.epoch(), order.revision(), view);
    }

    public String epoch() {
        return order.epoch();
    }

    public long revision() {
        return order.revision();
    }

    private void applyChange(GangChange change) {
        switch (change) {
            case GangChange.Held held -> put(held.holding());
            case GangChange.Released released -> remove(released.jobId());
            case GangChange.Unrelated unrelated -> { } // nodes do not change who shares a partition
        }
    }

    private void put(HeldAllocation holding) {
        String previous = partitionOfJob.get(holding.jobId());
        if (previous != null && !previous.equals(holding.partition())) {
            remove(holding.jobId());
        }
        partitions.computeIfAbsent(holding.partition(), name -> new LinkedHashMap<>())
                .put(holding.jobId(), holding.suspended());
        partitionOfJob.put(holding.jobId(), holding.partition());
    }

    private void remove(long jobId) {
        String partition = partitionOfJob.remove(jobId);
        if (partition != null) {
            partitions.get(partition).remove(jobId);
        }
    }
}
