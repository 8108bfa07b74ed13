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
 * Operation"):
 * <ol>
 *   <li>if the job starts without preempting, it does;</li>
 *   <li>stage one: simulate preempting the candidates in the given order until the job can start;</li>
 *   <li>reorder: the last job that had to be preempted first, then the other simulated victims by how many of their
 *       nodes overlap the resources selected for the job, most first;</li>
 *   <li>stage two: simulate again in that order until the job can start; those jobs whose nodes overlap the final
 *       selection are the victims.</li>
 * </ol>
 */
public final class SlurmTwoStagePolicy implements PreemptionPolicy {

    @Override
    public Optional<PreemptionPlan> place(StartTrial trial, ResourceRequest job, List<Long> preemptable) {
        List<Long> order = VictimSets.known(trial, preemptable);
        Optional<Placement.Start> free = trial.startWithout(job, List.of());
        if (free.isPresent()) {
            return Optional.of(new PreemptionPlan(free.get(), List.of(), 0));
        }
        Optional<Stage> first = simulate(trial, job, order);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        List<Long> removed = first.get().removed();
        Long last = removed.getLast();
        Set<String> selected = new HashSet<>();
        first.get().start().nodes().forEach(n -> selected.add(n.node()));
        List<Long> rest = new ArrayList<>(removed.subList(0, removed.size() - 1));
        rest.sort(Comparator.comparingLong((Long v) -> trial.nodesOf(v).stream().filter(selected::contains).count()).reversed());
        List<Long> reordered = new ArrayList<>();
        reordered.add(last);
        reordered.addAll(rest);
        Stage second = simulate(trial, job, reordered).orElse(first.get());
        List<Long> victims = VictimSets.overlapping(trial, second.start(), second.removed());
        Optional<Placement.Start> check = trial.startWithout(job, victims);
        if (check.isEmpty()) {
            victims = second.removed();
            check = Optional.of(second.start());
        }
        return Optional.of(VictimSets.plan(trial, check.get(), victims, order));
    }

    private record Stage(List<Long> removed, Placement.Start start) {}

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
