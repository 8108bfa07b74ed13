package dev.gantry.select.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds nodes in order of their earliest start for a demand without visiting every node: a binary tree over some
 * nodes of an {@link AvailabilityProfile} (a partition's members) in which every subtree keeps, for CPU levels
 * 1, 2, …, 8, 9, 10, 11, 13, 15, … (about 19/16 apart) and durations 0, 10 min, 20 min, 40 min, … 64 h, the earliest time any of
 * its nodes begins a run of at least that many CPUs free for at least that long. A node cannot start a job that needs
 * d CPUs for t seconds before its time at the largest level ≤ d and the longest duration ≤ t, so a best-first search
 * over these lower bounds meets nodes in ascending order of their exact earliest start and stops as soon as it has
 * what it needs.
 *
 * <p>Made by {@link AvailabilityProfile#index}, which keeps it up to date (O(segments + levels × log nodes) per change
 * of a node). Not thread-safe.
 */
public final class StartIndex {

    /** How one node's exact earliest start is computed (NEVER: not eligible, or not before the cutoff). */
    @FunctionalInterface
    public interface NodeStart {
        /** The node's earliest start ≥ {@code from} and ≤ {@code cutoff}, or {@link AvailabilityProfile#NEVER}. */
        long earliest(int node, long from, long cutoff);
    }

    private static final long TIME_LIMIT = 1L << 42;
    private static final long[] DURATIONS = {0, 600, 1_200, 2_400, 4_800, 9_600, 19_200, 38_400, 76_800, 153_600, 230_400};

    private final AvailabilityProfile profile;
    private final int[] nodes;
    private final int leaves;
    private final int levels;
    private final int[] thresholds;
    private final long[] first;
    private final int[] leafOf;

    StartIndex(AvailabilityProfile profile, int[] nodes) {
        if (nodes.length > 1 << 19) {
            throw new IllegalArgumentException("at most 2^19 nodes per index, got " + nodes.length);
        }
        this.profile = profile;
        this.nodes = nodes.clone();
        int size = 1;
        while (size < Math.max(1, nodes.length)) {
            size <<= 1;
        }
        leaves = size;
        int most = 1;
        for (int node : nodes) {
            most = Math.max(most, profile.mostFreeCpus(node));
        }
        List<Integer> steps = new ArrayList<>();
        for (long step = 1; step <= most; step = Math.max(step + 1, step * 19 / 16)) {
            steps.add((int) step);
        }
        thresholds = steps.stream().mapToInt(Integer::intValue).toArray();
        levels = thresholds.length * DURATIONS.length;
        first = new long[2 * leaves * levels];
        Arrays.fill(first, AvailabilityProfile.NEVER);
        leafOf = new int[profile.nodeCount()];
        Arrays.fill(leafOf, -1);
        for (int i = 0; i < nodes.length; i++) {
            leafOf[nodes[i]] = leaves + i;
            profile.runStarts(nodes[i], thresholds, DURATIONS, first, (leaves + i) * levels);
        }
        for (int p = leaves - 1; p >= 1; p--) {
            merge(p);
        }
    }

    /** Re-reads {@code node} from the profile after it changed; ignores nodes not in this index. */
    void changed(int node) {
        int p = leafOf[node];
        if (p < 0) {
            return;
        }
        profile.runStarts(node, thresholds, DURATIONS, first, p * levels);
        for (p >>= 1; p >= 1 && merge(p); p >>= 1) {
            // up to the root, or to the first subtree whose bounds did not change
        }
    }

    /** Recomputes subtree {@code p}'s bounds from its children; whether any changed. */
    private boolean merge(int p) {
        int at = p * levels;
        int l = 2 * p * levels;
        int r = l + levels;
        boolean changed = false;
        for (int k = 0; k < levels; k++) {
            long m = Math.min(first[l + k], first[r + k]);
            changed |= m != first[at + k];
            first[at + k] = m;
        }
        return changed;
    }

    /**
     * A search for nodes able to start a job that needs at least {@code minCpus} CPUs on every node for
     * {@code duration} seconds (NEVER: unlimited), in ascending order of {@code exact}'s answer, none later than
     * {@code cutoff}.
     */
    public Search search(long minCpus, long duration, long cutoff, NodeStart exact) {
        return search(minCpus, duration, cutoff, 1, exact);
    }

    /**
     * As {@link #search(long, long, long, NodeStart)}, given that every time on the profile is now or a multiple of
     * {@code grid} seconds (bf_resolution), which lets the search order nodes in buckets rather than a heap. Starting
     * a search ends the previous one of this index.
     */
    public Search search(long minCpus, long duration, long cutoff, long grid, NodeStart exact) {
        int k = 0;
        while (k + 1 < thresholds.length && thresholds[k + 1] <= minCpus) {
            k++;
        }
        int d = 0;
        while (d + 1 < DURATIONS.length && DURATIONS[d + 1] <= duration) {
            d++;
        }
        long end = Math.min(cutoff, profile.now() + TIME_LIMIT - 1);
        boolean buckets = BucketQueue.fits(end - profile.now(), Math.max(1, grid), MAX_BUCKETS);
        if (buckets) {
            queue.reset(end - profile.now(), Math.max(1, grid));
        }
        return new Search(k * DURATIONS.length + d, end, exact, buckets);
    }

    private static final int MAX_BUCKETS = 1 << 18;
    private final BucketQueue queue = new BucketQueue(21);

    /**
     * One best-first walk: a priority queue (a heap, or time buckets on a grid) of subtrees keyed by their lower bound
     * and of nodes keyed by their exact earliest start; a node comes out only when nothing left can start before it.
     * Not thread-safe.
     */
    public final class Search implements StartOrder {
        private final int level;
        private final long cutoff;
        private final NodeStart exact;
        private final boolean buckets;
        private long[] heap;
        private int size;
        private long time;

        private Search(int level, long cutoff, NodeStart exact, boolean buckets) {
            this.level = level;
            this.cutoff = cutoff;
            this.exact = exact;
            this.buckets = buckets;
            heap = buckets ? null : new long[64];
            push(1, first[levels + level], false);
        }

        private boolean empty() {
            return buckets ? queue.isEmpty() : size == 0;
        }

        private long top() {
            return buckets ? queue.peek() : heap[0];
        }

        @Override
        public int next() {
            while (!empty()) {
                long key = pop();
                long at = profile.now() + (key >>> 21);
                int p = (int) ((key >>> 1) & ((1 << 20) - 1));
                if ((key & 1) == 1) {
                    time = at;
                    return nodes[p - leaves];
                }
                // Down the subtree towards its smaller bound while nothing in the heap comes first; the other child
                // waits in the heap.
                boolean parked = false;
                while (p < leaves) {
                    long l = first[2 * p * levels + level];
                    long r = first[(2 * p + 1) * levels + level];
                    int child = l <= r ? 2 * p : 2 * p + 1;
                    push(child ^ 1, Math.max(l, r), false);
                    p = child;
                    at = Math.min(l, r);
                    if (at == AvailabilityProfile.NEVER || at > cutoff) {
                        parked = true;
                        break;
                    }
                    if (!empty() && (top() >>> 21) < at - profile.now()) {
                        push(p, at, false);
                        parked = true;
                        break;
                    }
                }
                if (!parked && p - leaves < nodes.length) {
                    long e = exact.earliest(nodes[p - leaves], at, cutoff);
                    push(p, e, true);
                }
            }
            return -1;
        }

        @Override
        public long time() {
            return time;
        }

        @Override
        public long peek() {
            return empty() ? AvailabilityProfile.NEVER : profile.now() + (top() >>> 21);
        }

        private void push(int position, long at, boolean resolved) {
            if (at == AvailabilityProfile.NEVER || at > cutoff) {
                return;
            }
            long key = key(at, position, resolved);
            if (buckets) {
                queue.push(key);
                return;
            }
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            int c = size++;
            heap[c] = key;
            while (c > 0 && heap[(c - 1) / 2] > heap[c]) {
                long t = heap[c];
                heap[c] = heap[(c - 1) / 2];
                heap[(c - 1) / 2] = t;
                c = (c - 1) / 2;
            }
        }

        private long key(long at, int position, boolean resolved) {
            return ((at - profile.now()) << 21) | ((long) position << 1) | (resolved ? 1 : 0);
        }

        private long pop() {
            if (buckets) {
                return queue.pop();
            }
            long top = heap[0];
            heap[0] = heap[--size];
            int p = 0;
            while (true) {
                int l = 2 * p + 1;
                int r = l + 1;
                int m = p;
                if (l < size && heap[l] < heap[m]) {
                    m = l;
                }
                if (r < size && heap[r] < heap[m]) {
                    m = r;
                }
                if (m == p) {
                    return top;
                }
                long t = heap[p];
                heap[p] = heap[m];
                heap[m] = t;
                p = m;
            }
        }
    }
}
