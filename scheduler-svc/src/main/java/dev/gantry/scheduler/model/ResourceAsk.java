package dev.gantry.scheduler.model;

/**
 * What a job needs, with defaults applied.
 *
 * @param memPerNodeMb MiB per node, 0 = memory not requested
 */
public record ResourceAsk(int minNodes, int maxNodes, int numTasks, int cpusPerTask, long memPerNodeMb) {

    public int totalCpus() {
        return numTasks * cpusPerTask;
    }

    /** CPUs each of {@code nodes} nodes must give when tasks are spread evenly. */
    public int cpusPerNode(int nodes) {
        return Math.max(1, (totalCpus() + nodes - 1) / nodes);
    }
}
