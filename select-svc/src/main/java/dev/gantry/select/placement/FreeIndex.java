package dev.gantry.select.placement;

import java.util.Arrays;
import java.util.BitSet;
import java.util.function.IntPredicate;

/**
 * A partition's member nodes bucketed by {@link Preference} order — Weight, then CPUs free now in the ledger — each
 * bucket a bit set in node order, so the first nodes a job may take are met in preference order without looking at
 * the nodes that have too few CPUs free. Must be told of every ledger change of a member ({@link #changed}).
 *
 * <p>Not thread-safe; one per partition per Plan.
 */
final class FreeIndex {

    private final Ledger ledger;
    private final int[] rankOf;
    private final int[] freeOf;
    private final int mostFree;
    private final BitSet[][] buckets;
    private final int[][] counts;

    FreeIndex(Ledger ledger, int[] members) {
        this.ledger = ledger;
        int n = ledger.view().nodeCount();
        rankOf = new int[n];
        freeOf = new int[n];
        Arrays.fill(rankOf, -1);
        int[] weights = Arrays.stream(members).map(this::weightKey).distinct().sorted().toArray();
        int most = 0;
        for (int i : members) {
            most = Math.max(most, ledger.view().node(i).cpus());
        }
        mostFree = most;
        buckets = new BitSet[weights.length][most + 1];
        counts = new int[weights.length][most + 1];
        for (int i : members) {
            rankOf[i] = Arrays.binarySearch(weights, weightKey(i));
            freeOf[i] = free(i);
            add(i);
        }
    }

    private FreeIndex(FreeIndex base, Ledger ledger) {
        this.ledger = ledger;
        rankOf = base.rankOf;
        freeOf = base.freeOf.clone();
        mostFree = base.mostFree;
        buckets = new BitSet[base.buckets.length][];
        counts = new int[base.counts.length][];
        for (int r = 0; r < buckets.length; r++) {
            buckets[r] = base.buckets[r].clone();
            for (int f = 0; f < buckets[r].length; f++) {
                buckets[r][f] = buckets[r][f] == null ? null : (BitSet) buckets[r][f].clone();
            }
            counts[r] = base.counts[r].clone();
        }
    }

    /**
     * A copy for {@code ledger}, which must be a copy of the ledger this index was built on with no change since
     * (a Plan's start). The base index (built once per replica view) is not changed.
     */
    FreeIndex copyFor(Ledger ledger) {
        return new FreeIndex(this, ledger);
    }

    /** Re-reads {@code node}'s free CPUs from the ledger; ignores non-members. */
    void changed(int node) {
        if (rankOf[node] < 0) {
            return;
        }
        int now = free(node);
        if (now != freeOf[node]) {
            int r = rankOf[node];
            buckets[r][freeOf[node]].clear(node);
            counts[r][freeOf[node]]--;
            freeOf[node] = now;
            add(node);
        }
    }

    /**
     * The first {@code count} members in preference order with at least {@code minFree} CPUs free that {@code accept}
     * takes, or null when fewer qualify. Same choice as ranking every qualified member by {@link Preference#key}.
     */
    int[] first(int count, long minFree, IntPredicate accept) {
        int[] chosen = new int[count];
        int n = 0;
        int from = (int) Math.clamp(minFree, 0, mostFree + 1L);
        for (int r = 0; r < buckets.length; r++) {
            for (int f = from; f <= mostFree; f++) {
                if (counts[r][f] == 0) {
                    continue;
                }
                BitSet bucket = buckets[r][f];
                for (int node = bucket.nextSetBit(0); node >= 0; node = bucket.nextSetBit(node + 1)) {
                    if (accept.test(node)) {
                        chosen[n++] = node;
                        if (n == count) {
                            return chosen;
                        }
                    }
                }
            }
        }
        return null;
    }

    /** The weight as {@link Preference#key} orders it. */
    private int weightKey(int node) {
        return (int) Math.clamp(ledger.view().node(node).weight() + 32_768L, 0, 65_535);
    }

    private int free(int node) {
        return (int) Math.clamp(ledger.freeCpus(node), 0, mostFree);
    }

    private void add(int node) {
        int r = rankOf[node];
        int f = freeOf[node];
        if (buckets[r][f] == null) {
            buckets[r][f] = new BitSet();
        }
        buckets[r][f].set(node);
        counts[r][f]++;
    }
}
