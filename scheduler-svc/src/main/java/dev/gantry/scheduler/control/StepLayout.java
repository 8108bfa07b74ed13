package dev.gantry.scheduler.control;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which nodes of a job a step (srun inside the allocation) runs on, and which tasks on each, as srun decides
 * (<a href="https://slurm.schedmd.com/srun.html">srun</a>): {@code -w} names nodes of the job; {@code -N} takes that
 * many of the job's nodes, in the job's order (after the named ones); without either, a step of {@code -n} tasks
 * takes min(n, the job's nodes) nodes, else every node of the job. Tasks default to one per node and are
 * distributed in blocks (Slurm's default {@code --distribution=block}): consecutive task ids per node, the first
 * nodes one task more when they do not divide evenly. Tasks are not limited to the job's CPUs (as with srun's
 * {@code --overcommit}). Pure.
 */
public final class StepLayout {

    private StepLayout() {}

    /** One node of a step: its index in the step (SLURM_NODEID) and the ids of its tasks (SLURM_PROCID). */
    public record Placement(String node, int nodeId, List<Integer> taskIds) {
        public Placement {
            taskIds = List.copyOf(taskIds);
        }
    }

    /** The refusal Slurm's srun prints for a step the allocation cannot hold. */
    public static final String NOT_AVAILABLE = "Requested node configuration is not available";

    /**
     * @param jobNodes the job's nodes, in allocation order
     * @param nodes {@code -N}, 0 = not given
     * @param numTasks {@code -n}, 0 = not given
     * @param nodeList {@code -w}, expanded; empty = not given
     * @return the placements in step order, or why the step cannot run (as srun reports it)
     */
    public static Result plan(List<String> jobNodes, int nodes, int numTasks, List<String> nodeList) {
        if (nodes < 0 || numTasks < 0) {
            return new Result(List.of(), Optional.of("node and task counts must not be negative"));
        }
        Set<String> chosen = new LinkedHashSet<>();
        for (String n : nodeList) {
            if (!jobNodes.contains(n)) {
                return refused(NOT_AVAILABLE + " (node " + n + " is not allocated to the job)");
            }
            chosen.add(n);
        }
        int want = nodes > 0 ? nodes
                : !chosen.isEmpty() ? chosen.size()
                : numTasks > 0 ? Math.min(numTasks, jobNodes.size())
                : jobNodes.size();
        if (want > jobNodes.size() || want < chosen.size()) {
            return refused(NOT_AVAILABLE + " (" + want + " nodes asked, the job has " + jobNodes.size()
                    + (chosen.isEmpty() ? "" : " and -w names " + chosen.size()) + ")");
        }
        for (String n : jobNodes) {
            if (chosen.size() >= want) {
                break;
            }
            chosen.add(n);
        }
        List<String> stepNodes = jobNodes.stream().filter(chosen::contains).toList();
        int tasks = numTasks > 0 ? numTasks : stepNodes.size();
        if (tasks < stepNodes.size()) {
            return refused(NOT_AVAILABLE + " (" + tasks + " tasks cannot run on " + stepNodes.size() + " nodes)");
        }
        List<Placement> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < stepNodes.size(); i++) {
            int count = tasks / stepNodes.size() + (i < tasks % stepNodes.size() ? 1 : 0);
            List<Integer> ids = new ArrayList<>();
            for (int t = 0; t < count; t++) {
                ids.add(next++);
            }
            out.add(new Placement(stepNodes.get(i), i, ids));
        }
        return new Result(out, Optional.empty());
    }

    /** @param refusal why the step cannot run; when present, {@code placements} is empty */
    public record Result(List<Placement> placements, Optional<String> refusal) {
        public Result {
            placements = List.copyOf(placements);
        }

        public int numTasks() {
            return placements.stream().mapToInt(p -> p.taskIds().size()).sum();
        }
    }

    private static Result refused(String why) {
        return new Result(List.of(), Optional.of(why));
    }
}
