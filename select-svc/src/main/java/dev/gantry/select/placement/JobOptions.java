package dev.gantry.select.placement;

import dev.gantry.placement.GresRequest;
import java.util.List;
import java.util.Set;

/**
 * The parts of a request beyond counts: sbatch's {@code --ntasks-per-node}, {@code --mem-per-cpu}, {@code --gres},
 * {@code --exclusive}, {@code --oversubscribe}, {@code --constraint}, {@code --nodelist}, {@code --exclude},
 * {@code --contiguous} and the time limit.
 *
 * @param ntasksPerNode    0 = not set
 * @param memPerCpuMb      0 = not set (mutually exclusive with the request's mem_per_node_mb)
 * @param nodeList         nodes the job must get (all of them)
 * @param timeLimitSeconds 0 = unknown (runs forever as far as reservations are concerned)
 */
public record JobOptions(int ntasksPerNode, long memPerCpuMb, List<GresRequest> gres, boolean exclusive,
                         boolean oversubscribe, Constraint constraint, List<String> nodeList, Set<String> exclude,
                         boolean contiguous, long timeLimitSeconds) {

    public static final JobOptions NONE = new JobOptions(0, 0, List.of(), false, false, Constraint.ANY, List.of(), Set.of(),
            false, 0);

    public JobOptions {
        gres = List.copyOf(gres);
        nodeList = List.copyOf(nodeList);
        exclude = Set.copyOf(exclude);
        if (ntasksPerNode < 0 || memPerCpuMb < 0 || timeLimitSeconds < 0) {
            throw new IllegalArgumentException("ntasks_per_node, mem_per_cpu and time_limit must not be negative");
        }
    }

    public JobOptions withNtasksPerNode(int n) {
        return new JobOptions(n, memPerCpuMb, gres, exclusive, oversubscribe, constraint, nodeList, exclude, contiguous, timeLimitSeconds);
    }

    public JobOptions withMemPerCpu(long mb) {
        return new JobOptions(ntasksPerNode, mb, gres, exclusive, oversubscribe, constraint, nodeList, exclude, contiguous, timeLimitSeconds);
    }

    public JobOptions withGres(List<GresRequest> g) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, g, exclusive, oversubscribe, constraint, nodeList, exclude, contiguous, timeLimitSeconds);
    }

    public JobOptions withExclusive(boolean e) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, gres, e, oversubscribe, constraint, nodeList, exclude, contiguous, timeLimitSeconds);
    }

    public JobOptions withOversubscribe(boolean o) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, gres, exclusive, o, constraint, nodeList, exclude, contiguous, timeLimitSeconds);
    }

    public JobOptions withConstraint(Constraint c) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, gres, exclusive, oversubscribe, c, nodeList, exclude, contiguous, timeLimitSeconds);
    }

    public JobOptions withNodeList(List<String> n) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, gres, exclusive, oversubscribe, constraint, n, exclude, contiguous, timeLimitSeconds);
    }

    public JobOptions withExclude(Set<String> x) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, gres, exclusive, oversubscribe, constraint, nodeList, x, contiguous, timeLimitSeconds);
    }

    public JobOptions withContiguous(boolean c) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, gres, exclusive, oversubscribe, constraint, nodeList, exclude, c, timeLimitSeconds);
    }

    public JobOptions withTimeLimitSeconds(long s) {
        return new JobOptions(ntasksPerNode, memPerCpuMb, gres, exclusive, oversubscribe, constraint, nodeList, exclude, contiguous, s);
    }
}
