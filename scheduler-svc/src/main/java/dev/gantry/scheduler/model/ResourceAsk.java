package dev.gantry.scheduler.model;

/**
 * What a job needs, with defaults applied. Memory is either per node or per CPU, never both.
 *
 * @param memPerNodeMb MiB per node, 0 = not requested per node
 * @param ntasksPerNode --ntasks-per-node, 0 = not requested
 * @param memPerCpuMb MiB per allocated CPU, 0 = not requested per CPU
 * @param selection GRES, features, node lists and sharing
 */
public record ResourceAsk(int minNodes, int maxNodes, int numTasks, int cpusPerTask, long memPerNodeMb,
        int ntasksPerNode, long memPerCpuMb, NodeSelection selection) {

    /** CPUs, tasks and memory per node only. */
    public ResourceAsk(int minNodes, int maxNodes, int numTasks, int cpusPerTask, long memPerNodeMb) {
        this(minNodes, maxNodes, numTasks, cpusPerTask, memPerNodeMb, 0, 0, NodeSelection.NONE);
    }

    public int totalCpus() {
        return numTasks * cpusPerTask;
    }

    /** CPUs each of {@code nodes} nodes must give when tasks are spread evenly. */
    public int cpusPerNode(int nodes) {
        return Math.max(1, (totalCpus() + nodes - 1) / nodes);
    }

    /** MiB the job needs on a node where it gets {@code cpus} CPUs (0 = memory not requested). */
    public long memoryOn(int cpus) {
        return memPerCpuMb > 0 ? memPerCpuMb * cpus : memPerNodeMb;
    }
}
