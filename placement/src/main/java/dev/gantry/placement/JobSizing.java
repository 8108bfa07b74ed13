package dev.gantry.placement;

/**
 * A job's tasks, CPUs and memory resolved against one partition's memory limits: CPUs per task after MaxMemPerCPU,
 * memory per CPU or per node after the partition's defaults, and how tasks spread over a given node count.
 *
 * <p>Memory, as https://slurm.schedmd.com/slurm.conf.html#OPT_DefMemPerCPU documents: {@code --mem} is per node,
 * {@code --mem-per-cpu} per allocated CPU; without either, DefMemPerNode or DefMemPerCPU apply (neither set: no memory
 * is charged). A per-CPU amount over MaxMemPerCPU raises the CPUs per task until it fits ({@code cpus_per_task ×
 * mem_per_cpu} kept, https://slurm.schedmd.com/slurm.conf.html#OPT_MaxMemPerCPU); per-node memory over MaxMemPerNode
 * cannot run in the partition ({@link #overMaxPerNode}).
 *
 * @param ntasksPerNode 0 = spread the tasks evenly
 * @param memPerCpuMb   MiB per allocated CPU; 0 = not per CPU
 * @param memPerNodeMb  MiB per node; 0 = not per node (at most one of the two is set)
 */
public record JobSizing(int numTasks, int cpusPerTask, int ntasksPerNode, long memPerCpuMb, long memPerNodeMb) {

    /** The sizing of a request ({@code memPerCpuMb} and {@code memPerNodeMb} as asked, 0 = not asked) in a partition. */
    public static JobSizing of(int numTasks, int cpusPerTask, int ntasksPerNode, long memPerCpuMb, long memPerNodeMb,
                               MemoryLimits limits) {
        long perCpu = memPerCpuMb;
        long perNode = memPerNodeMb;
        if (perCpu == 0 && perNode == 0) {
            perNode = limits.defPerNodeMb();
            perCpu = perNode == 0 ? limits.defPerCpuMb() : 0;
        }
        int perTask = cpusPerTask;
        if (perCpu > 0 && limits.maxPerCpuMb() > 0 && perCpu > limits.maxPerCpuMb()) {
            long total = perCpu * perTask;
            perTask = Math.toIntExact(Math.ceilDiv(total, limits.maxPerCpuMb()));
            perCpu = Math.ceilDiv(total, perTask);
        }
        return new JobSizing(numTasks, perTask, ntasksPerNode, perCpu, perNode);
    }

    /** num_tasks × cpus_per_task (after MaxMemPerCPU). */
    public long totalCpus() {
        return (long) numTasks * cpusPerTask;
    }

    /** Tasks on the {@code i}-th of {@code count} nodes: ntasks-per-node when set, else spread evenly, first nodes more. */
    public int tasksOn(int i, int count) {
        if (ntasksPerNode > 0) {
            return ntasksPerNode;
        }
        int base = numTasks / count;
        return base + (i < numTasks % count ? 1 : 0);
    }

    /** CPUs the {@code i}-th of {@code count} nodes must give (at least 1). */
    public long cpusOn(int i, int count) {
        return Math.max(1, (long) tasksOn(i, count) * cpusPerTask);
    }

    /** MiB for {@code cpus} CPUs on one node: the per-node amount, or per CPU times {@code cpus}. */
    public long memoryFor(long cpus) {
        return memPerNodeMb > 0 ? memPerNodeMb : memPerCpuMb * cpus;
    }

    /** What the {@code i}-th of {@code count} nodes must give, with the job's sharing, GRES and owner. */
    public NodeDemand demandOn(int i, int count, Sharing sharing, java.util.List<GresRequest> gres, String partition,
                               Owner owner) {
        long cpus = cpusOn(i, count);
        return new NodeDemand(cpus, memoryFor(cpus), memPerNodeMb > 0 ? 0 : memPerCpuMb, gres, sharing.wholeNode(),
                sharing.maxShare(), partition, owner);
    }

    /** Whether the memory on the first of {@code count} nodes is over the partition's MaxMemPerNode. */
    public boolean overMaxPerNode(MemoryLimits limits, int count) {
        return limits.maxPerNodeMb() > 0 && memoryFor(cpusOn(0, count)) > limits.maxPerNodeMb();
    }
}
