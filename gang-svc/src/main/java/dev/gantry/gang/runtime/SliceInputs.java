package dev.gantry.gang.runtime;

import dev.gantry.common.overlap.NodeHold;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.Partition;
import dev.gantry.gang.slice.Allocated;
import dev.gantry.gang.slice.GangSettings;
import dev.gantry.gang.slice.PartitionShape;
import java.util.Comparator;
import java.util.List;

/** The event stream's messages as the timeslicer's inputs. Stateless. */
final class SliceInputs {
    private SliceInputs() {}

    /** Allocation order: start time, then job id (the same order as {@link dev.gantry.gang.model.GangReplica}). */
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

    private static NodeHold hold(NodeAllocation node) {
        return new NodeHold(node.getNode(), node.getCpus(), node.getCoreIdsList());
    }
}
