package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.MemoryLimits;
import dev.gantry.select.model.Owner;
import java.util.List;
import java.util.Optional;

/**
 * A request resolved against one partition: CPUs per task after MaxMemPerCPU, memory per CPU or per node after the
 * partition's defaults, and how tasks spread over a given node count.
 *
 * <p>Memory, as https://slurm.schedmd.com/slurm.conf.html#OPT_DefMemPerCPU documents: {@code --mem} is per node,
 * {@code --mem-per-cpu} per allocated CPU; without either, DefMemPerNode or DefMemPerCPU apply (neither set: no memory
 * is charged — scheduler-svc may resolve a default first). A per-CPU amount over MaxMemPerCPU raises the CPUs per task
 * until it fits ({@code cpus_per_task × mem_per_cpu} kept); per-node memory over MaxMemPerNode cannot run in the
 * partition.
 */
record JobShape(ResourceRequest request, ClusterPartition partition, int cpusPerTask, long memPerCpuMb, long memPerNodeMb,
                boolean wholeNode, int maxShare) {

    /** The shape in {@code partition}, or empty when a partition limit forbids it. */
    static Optional<JobShape> of(ResourceRequest request, ClusterPartition partition, boolean linear) {
        MemoryLimits limits = partition.memory();
        JobOptions options = request.options();
        int cpusPerTask = request.cpusPerTask();
        long perCpu = options.memPerCpuMb();
        long perNode = request.memPerNodeMb();
        if (perCpu == 0 && perNode == 0) {
            perNode = limits.defPerNodeMb();
            perCpu = perNode == 0 ? limits.defPerCpuMb() : 0;
        }
        if (perCpu > 0 && limits.maxPerCpuMb() > 0 && perCpu > limits.maxPerCpuMb()) {
            long total = perCpu * cpusPerTask;
            cpusPerTask = Math.toIntExact(Math.ceilDiv(total, limits.maxPerCpuMb()));
            perCpu = Math.ceilDiv(total, cpusPerTask);
        }
        boolean whole = options.exclusive() || partition.oversubscribe().wholeNodes();
        int maxShare = whole ? 1 : partition.oversubscribe().maxShare(options.oversubscribe());
        JobShape shape = new JobShape(request, partition, cpusPerTask, perCpu, perNode, whole && !linear, maxShare);
        if (limits.maxPerNodeMb() > 0 && shape.demand(shape.minNodes()).memoryMb() > limits.maxPerNodeMb()) {
            return Optional.empty();
        }
        return Optional.of(shape);
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
        int perNode = request.options().ntasksPerNode();
        if (perNode > 0) {
            return perNode;
        }
        int base = request.numTasks() / count;
        return base + (i < request.numTasks() % count ? 1 : 0);
    }

    /** What the {@code i}-th of {@code count} nodes must give. */
    NodeDemand demandOn(int i, int count) {
        long cpus = Math.max(1, (long) tasksOn(i, count) * cpusPerTask);
        long memory = memPerNodeMb > 0 ? memPerNodeMb : memPerCpuMb * cpus;
        return new NodeDemand(cpus, memory, request.options().gres(), wholeNode, maxShare, partition.name(), owner());
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
