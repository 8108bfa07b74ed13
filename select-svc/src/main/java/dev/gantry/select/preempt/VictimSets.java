package dev.gantry.select.preempt;

import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.ResourceRequest;
import dev.gantry.select.placement.StartTrial;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Operations on candidate victim sets shared by the policies. Pure. */
final class VictimSets {
    private VictimSets() {}

    /** The preemptable jobs the trial holds, in the given order, each once. */
    static List<Long> known(StartTrial trial, List<Long> preemptable) {
        return new ArrayList<>(new LinkedHashSet<>(preemptable.stream().filter(trial::holds).toList()));
    }

    /** Victims whose nodes overlap the start (the others need not be preempted for it). */
    static List<Long> overlapping(StartTrial trial, Placement.Start start, List<Long> victims) {
        Set<String> nodes = new HashSet<>();
        start.nodes().forEach(n -> nodes.add(n.node()));
        return victims.stream().filter(v -> trial.nodesOf(v).stream().anyMatch(nodes::contains)).toList();
    }

    /**
     * Drops victims the start does not need: those not overlapping it, then, most CPUs first, each one without which
     * the job still starts. Precondition: the job starts with {@code victims} gone.
     */
    static Optional<PreemptingPlacement> pruned(StartTrial trial, ResourceRequest job, List<Long> victims, List<Long> order) {
        Optional<Placement.Start> start = trial.startWithout(job, victims);
        if (start.isEmpty()) {
            return Optional.empty();
        }
        List<Long> kept = new ArrayList<>(overlapping(trial, start.get(), victims));
        start = trial.startWithout(job, kept);
        if (start.isEmpty()) {
            kept = new ArrayList<>(victims);
            start = trial.startWithout(job, kept);
        }
        List<Long> byCost = new ArrayList<>(kept);
        byCost.sort(Comparator.comparingLong(trial::cpusOf).reversed().thenComparing(v -> -order.indexOf(v)));
        for (Long v : byCost) {
            List<Long> without = new ArrayList<>(kept);
            without.remove(v);
            Optional<Placement.Start> still = trial.startWithout(job, without);
            if (still.isPresent()) {
                kept = without;
                start = still;
            }
        }
        return Optional.of(plan(trial, start.get(), kept, order));
    }

    static PreemptingPlacement plan(StartTrial trial, Placement.Start start, List<Long> victims, List<Long> order) {
        List<Long> ordered = new ArrayList<>(victims);
        ordered.sort(Comparator.comparingInt(order::indexOf));
        return new PreemptingPlacement(start, ordered, ordered.stream().mapToLong(trial::cpusOf).sum());
    }

    /** Fewer preempted CPUs, then fewer victims; the first on ties. */
    static final Comparator<PreemptingPlacement> CHEAPEST = Comparator.comparingLong(PreemptingPlacement::preemptedCpus)
            .thenComparingInt(p -> p.victims().size());
}
