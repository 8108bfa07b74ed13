package dev.gantry.select.preempt;

import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.ResourceRequest;
import dev.gantry.select.placement.StartTrial;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gantry's default: the placement that preempts the fewest CPUs among several candidate victim sets, each pruned of
 * victims the start does not need ({@link VictimSets#pruned}):
 * <ol>
 *   <li>each single victim on its own (up to {@value #SINGLES} of them, in the given order);</li>
 *   <li>the cheapest first: victims by CPUs ascending (then given order) until the job starts;</li>
 *   <li>by node: each node's cheapest set of victims that frees it, nodes by that cost, until the job starts;</li>
 *   <li>the given order (Slurm's first stage);</li>
 *   <li>Slurm's two-stage result ({@link SlurmTwoStagePolicy}) — so this policy never preempts more CPUs than it.</li>
 * </ol>
 * Ties go to fewer victims, then to the earlier candidate. Slurm's example (n1–n5, three -N1 -n2 jobs on n1–n3, a
 * -N3 -n6 job) lands on the two idle nodes and one victim's node, preempting one job.
 * <p>
 * PreemptParameters=strict_order asks that only the lowest-priority jobs be preempted, which preempting the fewest CPUs
 * would break: with it this policy answers as the baseline (with its reorder_count) does.
 */
public final class LeastPreemptionPolicy implements PreemptionPolicy {

    static final int SINGLES = 64;

    private final SlurmTwoStagePolicy baseline;
    private final boolean strictOrder;

    /** Slurm's default PreemptParameters: one reorder, not strict. */
    public LeastPreemptionPolicy() {
        this(1, false);
    }

    /** @see SlurmTwoStagePolicy#SlurmTwoStagePolicy(int, boolean) */
    public LeastPreemptionPolicy(int reorderCount, boolean strictOrder) {
        this.baseline = new SlurmTwoStagePolicy(reorderCount, strictOrder);
        this.strictOrder = strictOrder;
    }

    @Override
    public Optional<PreemptingPlacement> place(StartTrial trial, ResourceRequest job, List<Long> preemptable) {
        if (strictOrder) {
            return baseline.place(trial, job, preemptable);
        }
        List<Long> order = VictimSets.known(trial, preemptable);
        Optional<Placement.Start> free = trial.startWithout(job, List.of());
        if (free.isPresent()) {
            return Optional.of(new PreemptingPlacement(free.get(), List.of(), 0));
        }
        if (trial.startWithout(job, order).isEmpty()) {
            return Optional.empty();
        }
        List<PreemptingPlacement> candidates = new ArrayList<>();
        for (Long victim : order.subList(0, Math.min(SINGLES, order.size()))) {
            if (trial.startWithout(job, List.of(victim)).isPresent()) {
                VictimSets.pruned(trial, job, List.of(victim), order).ifPresent(candidates::add);
            }
        }
        List<Long> bySize = new ArrayList<>(order);
        bySize.sort(Comparator.comparingLong(trial::cpusOf).thenComparingInt(order::indexOf));
        prefix(trial, job, bySize, order).ifPresent(candidates::add);
        prefix(trial, job, byNode(trial, order), order).ifPresent(candidates::add);
        prefix(trial, job, order, order).ifPresent(candidates::add);
        baseline.place(trial, job, preemptable).ifPresent(candidates::add);
        return candidates.stream().min(VictimSets.CHEAPEST);
    }

    /** The shortest prefix of {@code sequence} after which the job starts, pruned. */
    private static Optional<PreemptingPlacement> prefix(StartTrial trial, ResourceRequest job, List<Long> sequence,
                                                   List<Long> order) {
        List<Long> removed = new ArrayList<>();
        for (Long victim : sequence) {
            removed.add(victim);
            if (trial.startWithout(job, removed).isPresent()) {
                return VictimSets.pruned(trial, job, removed, order);
            }
        }
        return Optional.empty();
    }

    /**
     * Victims grouped by node: nodes ordered by the CPUs of all victims on them (a node whose jobs are cheap to
     * preempt first, ties to the node whose victims come earliest in the given order), each node's victims cheapest
     * first.
     */
    private static List<Long> byNode(StartTrial trial, List<Long> order) {
        Map<String, List<Long>> onNode = new HashMap<>();
        for (Long v : order) {
            for (String node : trial.nodesOf(v)) {
                onNode.computeIfAbsent(node, n -> new ArrayList<>()).add(v);
            }
        }
        List<String> nodes = new ArrayList<>(onNode.keySet());
        nodes.sort(Comparator.comparingLong((String n) -> onNode.get(n).stream().mapToLong(trial::cpusOf).sum())
                .thenComparingInt(n -> onNode.get(n).stream().mapToInt(order::indexOf).max().orElse(0))
                .thenComparing(n -> n));
        LinkedHashSet<Long> sequence = new LinkedHashSet<>();
        for (String node : nodes) {
            List<Long> victims = new ArrayList<>(onNode.get(node));
            victims.sort(Comparator.comparingLong(trial::cpusOf).thenComparingInt(order::indexOf));
            sequence.addAll(victims);
        }
        return new ArrayList<>(sequence);
    }
}
