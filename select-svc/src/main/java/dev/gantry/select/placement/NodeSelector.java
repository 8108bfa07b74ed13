package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the nodes for one job in one partition, or none when it does not fit now.
 *
 * <p>Tries node counts from the fewest the job accepts up to max_nodes and takes the first that fits (fewest nodes).
 * For a count, a node qualifies when it is a usable member, not excluded, matches the constraint alternative tried
 * (alternatives of {@code [a|b]} in order: all nodes from one), the ledger admits the largest per-node demand and the
 * caller's {@link NodeGate} is open. Required nodes ({@code --nodelist}) must all qualify and come first; the rest go by
 * {@link Preference}, or the first contiguous run ({@code --contiguous}), or the switch tree ({@link TreeChoice}) for
 * multi-node jobs when a topology is configured.
 *
 * <p>Pure; thread-safe.
 */
final class NodeSelector {

    /**
     * Chosen node indexes (first runs the batch script) for {@code shape} among {@code members} (from
     * {@link #memberIndexes}), or empty. Charges nothing.
     */
    Optional<int[]> select(Ledger ledger, JobShape shape, NodeGate gate, int[] members) {
        int fewest = shape.minNodes();
        int most = Math.min(shape.request().maxNodes(), members.length);
        if (most < fewest) {
            return Optional.empty();
        }
        for (Constraint alternative : shape.request().options().constraint().alternatives()) {
            Optional<int[]> chosen = select(ledger, shape, gate, members, alternative, fewest, most);
            if (chosen.isPresent()) {
                return chosen;
            }
        }
        return Optional.empty();
    }

    private Optional<int[]> select(Ledger ledger, JobShape shape, NodeGate gate, int[] members, Constraint constraint,
                                   int fewest, int most) {
        int[] required = new int[shape.required().size()];
        for (int i = 0; i < required.length; i++) {
            required[i] = ledger.view().indexOf(shape.required().get(i));
            if (required[i] < 0) {
                return Optional.empty();
            }
        }
        // The most nodes make the smallest per-node demand, which qualifies the most nodes: no count above that many
        // qualified nodes can fit, so a job that fits nowhere costs one pass, not one per count.
        int widestCount = most;
        int[] widest = qualified(ledger, shape.demand(most), gate, members, constraint);
        most = Math.min(most, widest.length);
        for (int count = fewest; count <= most; count++) {
            int[] candidates = count == widestCount ? widest : qualified(ledger, shape.demand(count), gate, members, constraint);
            if (candidates.length < count) {
                continue;
            }
            Optional<int[]> chosen = choose(ledger, shape, candidates, required, count);
            if (chosen.isPresent()) {
                return chosen;
            }
        }
        return Optional.empty();
    }

    private Optional<int[]> choose(Ledger ledger, JobShape shape, int[] candidates, int[] required, int count) {
        BitSet pool = new BitSet();
        for (int c : candidates) {
            pool.set(c);
        }
        for (int r : required) {
            if (!pool.get(r)) {
                return Optional.empty();
            }
        }
        if (shape.request().options().contiguous()) {
            return contiguous(candidates, pool, required, count);
        }
        if (count > 1 && !ledger.view().topology().isEmpty()) {
            return TreeChoice.choose(ledger, candidates, required, count);
        }
        long[] keys = new long[candidates.length];
        int n = 0;
        for (int c : candidates) {
            boolean isRequired = false;
            for (int r : required) {
                isRequired |= r == c;
            }
            if (!isRequired) {
                ClusterNode node = ledger.view().node(c);
                keys[n++] = Preference.key(node.weight(), ledger.freeCpus(c), c);
            }
        }
        long[] best = Preference.best(keys, n, count - required.length);
        int[] chosen = new int[count];
        System.arraycopy(required, 0, chosen, 0, required.length);
        for (int i = 0; i < best.length && required.length + i < count; i++) {
            chosen[required.length + i] = Preference.index(best[i]);
        }
        return required.length + best.length >= count ? Optional.of(chosen) : Optional.empty();
    }

    /** The first run of {@code count} consecutive members (in partition order) that all qualify and hold the required. */
    private static Optional<int[]> contiguous(int[] candidates, BitSet pool, int[] required, int count) {
        // Candidates are in partition order; a run is consecutive node indexes.
        for (int start = 0; start + count <= candidates.length; start++) {
            if (candidates[start + count - 1] - candidates[start] != count - 1) {
                continue;
            }
            int[] run = java.util.Arrays.copyOfRange(candidates, start, start + count);
            boolean holds = true;
            for (int r : required) {
                holds &= r >= run[0] && r <= run[count - 1];
            }
            if (holds) {
                return Optional.of(run);
            }
        }
        return Optional.empty();
    }

    private static int[] qualified(Ledger ledger, NodeDemand demand, NodeGate gate, int[] members, Constraint constraint) {
        int[] out = new int[members.length];
        int n = 0;
        for (int index : members) {
            ClusterNode node = ledger.view().node(index);
            if (ledger.admits(index, demand) && constraint.matches(node.features()) && gate.open(index, demand)) {
                out[n++] = index;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** Partition members the replica knows, in partition order, each once, minus {@code --exclude}d ones. */
    static int[] memberIndexes(Ledger ledger, ClusterPartition partition, java.util.Set<String> exclude) {
        List<Integer> members = new ArrayList<>(partition.nodes().size());
        BitSet seen = new BitSet(ledger.view().nodeCount());
        for (String name : partition.nodes()) {
            int index = ledger.view().indexOf(name);
            if (index >= 0 && !seen.get(index) && !exclude.contains(name)) {
                seen.set(index);
                members.add(index);
            }
        }
        return members.stream().mapToInt(Integer::intValue).toArray();
    }
}
