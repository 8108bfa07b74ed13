package dev.gantry.select.placement;

import dev.gantry.placement.JobSizing;
import dev.gantry.placement.NodeDemand;
import dev.gantry.placement.Owner;
import dev.gantry.placement.Sharing;
import dev.gantry.select.model.ClusterPartition;
import java.util.List;
import java.util.Optional;

/**
 * A request resolved against one partition by the placement core: its {@link JobSizing} (CPUs per task after
 * MaxMemPerCPU, memory after the partition's defaults, tasks per node) and {@link Sharing} (whole nodes, how many jobs
 * may share a unit). A partition whose MaxMemPerNode the request exceeds cannot run it.
 */
record JobShape(ResourceRequest request, ClusterPartition partition, JobSizing sizing, Sharing sharing) {

    /** The shape in {@code partition}, or empty when a partition limit forbids it. */
    static Optional<JobShape> of(ResourceRequest request, ClusterPartition partition, boolean linear) {
        JobOptions options = request.options();
        JobSizing sizing = JobSizing.of(request.numTasks(), request.cpusPerTask(), options.ntasksPerNode(),
                options.memPerCpuMb(), request.memPerNodeMb(), partition.memory());
        Sharing sharing = Sharing.of(partition.oversubscribe().wholeNodes(),
                partition.oversubscribe().maxShare(options.oversubscribe()), options.exclusive(), linear);
        JobShape shape = new JobShape(request, partition, sizing, sharing);
        if (sizing.overMaxPerNode(partition.memory(), shape.minNodes())) {
            return Optional.empty();
        }
        return Optional.of(shape);
    }

    int cpusPerTask() {
        return sizing.cpusPerTask();
    }

    boolean wholeNode() {
        return sharing.wholeNode();
    }

    int maxShare() {
        return sharing.maxShare();
    }

    /** The fewest nodes the job may get: min_nodes, its node list, and tasks ÷ ntasks-per-node. */
    int minNodes() {
        int min = Math.max(request.minNodes(), request.options().nodeList().size());
        int perNode = request.options().ntasksPerNode();
        if (perNode > 0) {
            min = Math.max(min, Math.ceilDiv(request.numTasks(), perNode));
        }
        return min;
    }

    /** Tasks on the {@code i}-th of {@code count} nodes: ntasks-per-node when set, else spread evenly, first nodes more. */
    int tasksOn(int i, int count) {
        return sizing.tasksOn(i, count);
    }

    /** What the {@code i}-th of {@code count} nodes must give. */
    NodeDemand demandOn(int i, int count) {
        return sizing.demandOn(i, count, sharing, request.options().gres(), partition.name(), owner());
    }

    /** The largest per-node demand for {@code count} nodes (the first node's): every chosen node must admit it. */
    NodeDemand demand(int count) {
        return demandOn(0, count);
    }

    /** The job's user, user-exclusive when it asked --exclusive=user or the partition is ExclusiveUser=YES. */
    Owner owner() {
        return request.owner().orExclusive(partition.exclusiveUser());
    }

    List<String> required() {
        return request.options().nodeList();
    }
}
