package dev.gantry.gang.runtime;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.Partition;
import dev.gantry.common.overlap.NodeHold;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import dev.gantry.gang.model.HeldAllocation;
import dev.gantry.gang.model.GangChange;
import dev.gantry.gang.slice.Allocated;
import dev.gantry.gang.slice.GangSettings;
import dev.gantry.gang.slice.PartitionShape;
import java.util.Comparator;
import java.util.List;

/** The event stream's messages as the timeslicer's and the replica's inputs. Stateless. */
final class SliceInputs {
    private SliceInputs() {}

    /** Allocation order: start time, then job id (the stable tie-break); the timeslicer's and the replica's. */
    private static final Comparator<Allocation> ALLOCATION_ORDER = Comparator
            .comparingLong((Allocation a) -> a.getStartTime().getSeconds())
            .thenComparingInt(a -> a.getStartTime().getNanos())
            .thenComparingLong(Allocation::getJobId);

    /** The snapshot's gang settings (a SchedulerTimeSlice of 0, unset, is Slurm's default). */
    static GangSettings settings(ClusterSnapshot snapshot) {
        int slice = snapshot.getGang().getTimeSliceSeconds();
        return GangSettings.of(snapshot.getGang().getPreemptMode(), slice == 0 ? GangSettings.DEFAULT_TIME_SLICE.toSeconds() : slice);
    }

    static OverlapRule rule(ClusterSnapshot snapshot) {
        return OverlapRule.of(snapshot.getSelect().getSelectType(), snapshot.getSelect().getSelectTypeParameters());
    }

    static List<NodeShape> nodes(ClusterSnapshot snapshot) {
        return snapshot.getNodesList().stream().map(SliceInputs::node).toList();
    }

    static NodeShape node(Node node) {
        return new NodeShape(node.getName(), node.getCpus(), node.getCoresPerSocket());
    }

    static List<PartitionShape> partitions(ClusterSnapshot snapshot, GangSettings settings) {
        return snapshot.getPartitionsList().stream().map(p -> partition(p, settings)).toList();
    }

    static PartitionShape partition(Partition partition, GangSettings settings) {
        return new PartitionShape(partition.getName(), partition.getPriorityTier(), settings.gangFor(partition.getPreemptMode()));
    }

    /** A snapshot's allocations in allocation order. */
    static List<Allocated> allocations(ClusterSnapshot snapshot) {
        return snapshot.getAllocationsList().stream().sorted(ALLOCATION_ORDER).map(SliceInputs::allocated).toList();
    }

    /**
     * An allocation. A suspended one carries when its suspension began, so a rebuilt timeslicer resumes the job that
     * has waited longest first (without it — an older controller — allocation order decides).
     */
    static Allocated allocated(Allocation allocation) {
        List<NodeHold> holds = allocation.getNodesList().stream().map(SliceInputs::hold).toList();
        java.time.Instant since = allocation.getSuspended() && allocation.hasSuspendTime()
                ? java.time.Instant.ofEpochSecond(allocation.getSuspendTime().getSeconds(), allocation.getSuspendTime().getNanos())
                : null;
        return new Allocated(allocation.getJobId(), allocation.getPartition(), holds, allocation.getSuspended(), since);
    }

    /** The snapshot's partition names, in its order. */
    static List<String> partitionNames(ClusterSnapshot snapshot) {
        return snapshot.getPartitionsList().stream().map(Partition::getName).toList();
    }

    /** The replica's view of a snapshot's allocation (or of one in allocation order: {@link #allocations}). */
    static HeldAllocation holding(Allocated allocated) {
        return new HeldAllocation(allocated.jobId(), allocated.partition(), allocated.suspended());
    }

    /**
     * What an event changes for the replica.
     *
     * @throws IllegalArgumentException for a snapshot, which replaces the replica rather than being applied to it
     */
    static GangChange change(ClusterEvent event) {
        return switch (event.getEventCase()) {
            case ALLOCATION_ADDED -> held(event.getAllocationAdded());
            case ALLOCATION_CHANGED -> held(event.getAllocationChanged());
            case ALLOCATION_RELEASED -> new GangChange.Released(event.getAllocationReleased());
            case NODE_CHANGED, EVENT_NOT_SET -> new GangChange.Unrelated();
            case SNAPSHOT -> throw new IllegalArgumentException("a snapshot replaces the replica; it is not applied to it");
        };
    }

    private static GangChange held(Allocation allocation) {
        return new GangChange.Held(new HeldAllocation(allocation.getJobId(), allocation.getPartition(), allocation.getSuspended()));
    }

    private static NodeHold hold(NodeAllocation node) {
        return new NodeHold(node.getNode(), node.getCpus(), node.getCoreIdsList());
    }
}
