package dev.gantry.select.preempt;

import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.ResourceRequest;
import dev.gantry.select.placement.StartTrial;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Slurm's documented method, as a baseline (https://slurm.schedmd.com/preempt.html, "Preemption Design and
 * Operation"; the reorder loop of select/cons_tres, with slurm.conf's PreemptParameters reorder_count and strict_order):
 * <ol>
 *   <li>if the job starts without preempting, it does;</li>
 *   <li>stage one: simulate preempting the candidates in the given order until the job can start;</li>
 *   <li>reorder: the last job that had to be preempted first, then the other simulated victims by how many of their
 *       nodes overlap the resources selected for the job, most first (with strict_order: the others keep the given
 *       order, so only lower-priority jobs are preempted), then the candidates not reached;</li>
 *   <li>simulate again in that order until the job can start; steps 3–4 repeat reorder_count times (Slurm's default
 *       1; 0 = no reorder). The jobs of the last simulation whose nodes overlap the final selection are the victims.</li>
 * </ol>
 */
public final class SlurmTwoStagePolicy implements PreemptionPolicy {

    private final int reorderCount;
    private final boolean strictOrder;

    /** Slurm's defaults: one reorder, not strict. */
    public SlurmTwoStagePolicy() {
        this(1, false);
    }

    /**
     * @param reorderCount PreemptParameters reorder_count: how many reorder-and-simulate rounds follow stage one (≥ 0)
     * @param strictOrder PreemptParameters strict_order: a reorder moves only the last needed job to the front
     */
    public SlurmTwoStagePolicy(int reorderCount, boolean strictOrder) {
        if (reorderCount < 0) {
            throw new IllegalArgumentException("reorderCount must be >= 0, got " + reorderCount);
        }
        this.reorderCount = reorderCount;
        this.strictOrder = strictOrder;
    }

    @Override
    public Optional<PreemptingPlacement> place(StartTrial trial, ResourceRequest job, List<Long> preemptable) {
        List<Long> order = VictimSets.known(trial, preemptable);
        Optional<Placement.Start> free = trial.startWithout(job, List.of());
        if (free.isPresent()) {
            return Optional.of(new PreemptingPlacement(free.get(), List.of(), 0));
        }
        Optional<Stage> first = simulate(trial, job, order);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        Stage stage = first.get();
        List<Long> candidates = order;
        for (int round = 0; round < reorderCount; round++) {
            List<Long> reordered = reorder(trial, stage, candidates);
            Optional<Stage> next = simulate(trial, job, reordered);
            if (next.isEmpty()) {
                break;
            }
            stage = next.get();
            candidates = reordered;
        }
        List<Long> victims = VictimSets.overlapping(trial, stage.start(), stage.removed());
        Optional<Placement.Start> check = trial.startWithout(job, victims);
        if (check.isEmpty()) {
            victims = stage.removed();
            check = Optional.of(stage.start());
        }
        return Optional.of(VictimSets.plan(trial, check.get(), victims, order));
    }

    private record Stage(List<Long> removed, Placement.Start start) {}

    /** The last needed victim first, then the other simulated ones (by overlap, or as they were), then the rest. */
    private List<Long> reorder(StartTrial trial, Stage stage, List<Long> candidates) {
        List<Long> removed = stage.removed();
        Long last = removed.getLast();
        List<Long> rest = new ArrayList<>(removed.subList(0, removed.size() - 1));
        if (!strictOrder) {
            Set<String> selected = new HashSet<>();
            stage.start().nodes().forEach(n -> selected.add(n.node()));
            rest.sort(Comparator.comparingLong((Long v) -> trial.nodesOf(v).stream().filter(selected::contains).count())
                    .reversed());
        }
        List<Long> reordered = new ArrayList<>(candidates.size());
        reordered.add(last);
        reordered.addAll(rest);
        Set<Long> seen = new HashSet<>(removed);
        for (Long c : candidates) {
            if (!seen.contains(c)) {
                reordered.add(c);
            }
        }
        return reordered;
    }

    private static Optional<Stage> simulate(StartTrial trial, ResourceRequest job, List<Long> order) {
        List<Long> removed = new ArrayList<>();
        for (Long victim : order) {
            removed.add(victim);
            Optional<Placement.Start> start = trial.startWithout(job, removed);
            if (start.isPresent()) {
                return Optional.of(new Stage(List.copyOf(removed), start.get()));
            }
        }
        return Optional.empty();
    }
}
