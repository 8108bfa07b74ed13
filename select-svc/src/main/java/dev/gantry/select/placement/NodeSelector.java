package dev.gantry.select.placement;

import dev.gantry.placement.NodeDemand;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.SelectMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the nodes for one job in one partition, or none when it does not fit now.
 *
 * <p>For each constraint alternative (those of {@code [a|b]} in order: all nodes from one), the job tries the sharing
 * levels from 0 up to its partition's OverSubscribe count − 1 and takes the first that fits: at level L a unit (core,
 * CPU, or the node under select/linear) may already be held by at most L jobs of its partition. So shared resources
 * are used only when free ones do not suffice, and then the least shared first — Slurm 22.05's rule:
 * select/linear's {@code _run_now} (src/plugins/select/linear/select_linear.c) loops {@code max_run_job} from 0 up to
 * max_share − 1 and keeps only the nodes running at most that many jobs ({@code _job_count_bitmap}); cons_tres
 * ({@code _job_test} in src/plugins/select/cons_common/job_test.c) first seeks idle cores across all partitions
 * ("Step 1"), then places row by row in the job's partition ("Step 4"). Gantry counts holders per unit rather than
 * keeping Slurm's rows; the two agree where each row's jobs tile the units (gang_scheduling.html's examples). A level
 * whose nodes are those of the level below (levels only add nodes) is skipped, as Slurm's {@code j == prev_cnt}.
 *
 * <p>Within a level, node counts go from the fewest the job accepts up to max_nodes, and the first that fits wins
 * (fewest nodes). For a count, a node qualifies when it is a usable member, not excluded, matches the alternative, the
 * ledger admits the largest per-node demand at the level and the caller's {@link NodeGate} is open. Under select/linear
 * above level 0, a running job of exactly that many qualified nodes is taken first ({@link JobMate}). Otherwise required
 * nodes ({@code --nodelist}) must all qualify and come first; the rest go by {@link Preference} — best fit counting the
 * CPUs usable at the level, so a busy node is not preferred to an idle one that is as usable (Slurm: n[12-13] for a
 * -N2 job beside jobs on n[13-16]) — or the first contiguous run ({@code --contiguous}), or the switch tree
 * ({@link TreeChoice}) for multi-node jobs when a topology is configured.
 *
 * <p>Pure; thread-safe.
 */
final class NodeSelector {

    /**
     * Chosen node indexes (first runs the batch script) for {@code shape} among {@code members} (from
     * {@link #memberIndexes}), or empty. Charges nothing.
     */
    Optional<int[]> select(Ledger ledger, JobShape shape, NodeGate gate, int[] members) {
        for (Constraint alternative : shape.request().options().constraint().alternatives()) {
            Optional<int[]> chosen = select(ledger, shape, gate, members, alternative, 0);
            if (chosen.isPresent()) {
                return chosen;
            }
        }
        return Optional.empty();
    }

    /** As {@link #select(Ledger, JobShape, NodeGate, int[])} for one constraint alternative, from sharing level {@code from}. */
    Optional<int[]> select(Ledger ledger, JobShape shape, NodeGate gate, int[] members, Constraint alternative, int from) {
        int fewest = shape.minNodes();
        int most = Math.min(shape.request().maxNodes(), members.length);
        if (most < fewest) {
            return Optional.empty();
        }
        int[] required = new int[shape.required().size()];
        for (int i = 0; i < required.length; i++) {
            required[i] = ledger.view().indexOf(shape.required().get(i));
            if (required[i] < 0) {
                return Optional.empty();
            }
        }
        int[] qualifiedBefore = new int[most - fewest + 1];
        Arrays.fill(qualifiedBefore, -1);
        for (int level = from; level < Math.max(1, shape.maxShare()); level++) {
            Optional<int[]> chosen = atLevel(ledger, shape, gate, members, alternative, required, fewest, most, level,
                    qualifiedBefore);
            if (chosen.isPresent()) {
                return chosen;
            }
        }
        return Optional.empty();
    }

    /** @param qualifiedBefore per node count, how many nodes qualified at the level before (-1: not tried); updated */
    private Optional<int[]> atLevel(Ledger ledger, JobShape shape, NodeGate gate, int[] members, Constraint constraint,
                                    int[] required, int fewest, int most, int level, int[] qualifiedBefore) {
        // The most nodes make the smallest per-node demand, which qualifies the most nodes: no count above that many
        // qualified nodes can fit, so a job that fits nowhere costs one pass, not one per count.
        int[] widest = qualified(ledger, shape.demand(most).atLevel(level), gate, members, constraint);
        int top = Math.min(most, widest.length);
        boolean mates = level > 0 && ledger.view().settings().mode() == SelectMode.LINEAR;
        for (int count = fewest; count <= top; count++) {
            NodeDemand demand = shape.demand(count).atLevel(level);
            int[] candidates = count == most ? widest : qualified(ledger, demand, gate, members, constraint);
            if (candidates.length < count || candidates.length == qualifiedBefore[count - fewest]) {
                continue; // too few, or the very nodes that failed at the level before
            }
            qualifiedBefore[count - fewest] = candidates.length;
            BitSet pool = new BitSet();
            for (int c : candidates) {
                pool.set(c);
            }
            Optional<int[]> chosen = mates ? JobMate.find(ledger, shape, pool, required, count) : Optional.empty();
            if (chosen.isEmpty()) {
                chosen = choose(ledger, shape, demand, candidates, pool, required, count);
            }
            if (chosen.isPresent()) {
                return chosen;
            }
        }
        return Optional.empty();
    }

    private Optional<int[]> choose(Ledger ledger, JobShape shape, NodeDemand demand, int[] candidates, BitSet pool,
                                   int[] required, int count) {
        for (int r : required) {
            if (!pool.get(r)) {
                return Optional.empty();
            }
        }
        if (shape.request().options().contiguous()) {
            return contiguous(candidates, required, count);
        }
        if (count > 1 && !ledger.view().topology().isEmpty()) {
            return TreeChoice.choose(ledger, demand, candidates, required, count);
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
                keys[n++] = Preference.key(node.weight(), ledger.availableCpus(c, demand), c);
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
    private static Optional<int[]> contiguous(int[] candidates, int[] required, int count) {
        // Candidates are in partition order; a run is consecutive node indexes.
        for (int start = 0; start + count <= candidates.length; start++) {
            if (candidates[start + count - 1] - candidates[start] != count - 1) {
                continue;
            }
            int[] run = Arrays.copyOfRange(candidates, start, start + count);
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
        return Arrays.copyOf(out, n);
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
