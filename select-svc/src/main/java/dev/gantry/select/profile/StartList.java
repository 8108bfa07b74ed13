package dev.gantry.select.profile;

import java.util.Arrays;

/**
 * One (CPU threshold, duration) level of a {@link StartIndex}: the index's nodes in ascending order of a lower bound
 * of their earliest start (the start of their first run of at least {@code threshold} CPUs free for at least
 * {@code duration} seconds), listed lazily and kept for every later search of the same level in the call.
 *
 * <p>Why a list can be kept: within one call the profile only loses resources (starts and reservations take, nothing
 * gives back), so a node's true bound only moves later, and a bound computed earlier stays a lower bound. The list's
 * invariants hold whatever changed since:
 * <ul>
 *   <li>entries are sorted by bound, and every bound is a lower bound of its node's start at this level;</li>
 *   <li>every node not listed (nor dropped as never starting) has a bound of at least {@link #frontier}, the bound of
 *       the last entry listed from the tree.</li>
 * </ul>
 * Nodes are listed by a best-first walk over a min-tree of the bounds of the members not listed, made when the level
 * is first used; the walk goes on where the last search left it. The leaves are kept current (the index re-reads a
 * node on every change and tells each level in use whose bound moved: {@link #moved}, O(1)); the subtrees above keep
 * older, lower bounds — still valid — until the walk has wasted enough steps on them to recompute them all
 * ({@link #replant}, O(members)): updating every subtree on every change would cost the most exactly where changes
 * happen, on the nodes with the earliest bounds. Entries already listed are refreshed lazily instead: a
 * search that meets an entry whose node changed since its bound was computed moves it later ({@link #refresh}) once,
 * rather than every later search paying for it.
 *
 * <p>Not thread-safe; one search at a time.
 */
final class StartList {

    static final int NONE = Integer.MAX_VALUE;
    private static final int POSITION_BITS = 21;
    private static final long POSITION_MASK = (1L << POSITION_BITS) - 1;

    private final StartIndex index;
    private final int level;
    private final int leaves;
    private final int[] tree;

    /** The walk's queue: (bound, tree position) keys, least bound first. */
    private final LongHeap heap = new LongHeap();

    /** Entry {@code i}: member {@code member[i]} (-1: removed, its bound kept for order), its bound, when computed. */
    int[] member = new int[64];
    int[] bound = new int[64];
    private long[] stamp = new long[64];
    int size;
    private int removed;
    private int frontier;
    /** Whether a member is in the list now (else in the walk, or dropped as never starting). */
    private final boolean[] listed;
    /** Steps the walk wasted on a bound that had moved later since the tree's subtrees were computed. */
    private int stale;

    StartList(StartIndex index, int level) {
        this.index = index;
        this.level = level;
        int members = index.members();
        int size = 1;
        while (size < Math.max(1, members)) {
            size <<= 1;
        }
        leaves = size;
        tree = new int[2 * leaves];
        Arrays.fill(tree, NONE);
        for (int m = 0; m < members; m++) {
            tree[leaves + m] = index.currentBound(m, level);
        }
        for (int p = leaves - 1; p >= 1; p--) {
            tree[p] = Math.min(tree[2 * p], tree[2 * p + 1]);
        }
        listed = new boolean[members];
        push(1, tree[1]);
    }

    /**
     * {@code member}'s bound moved to {@code b} (later): its leaf, if it is still in the tree. The subtrees above keep
     * their older (lower, so still valid) bounds until the tree is made again ({@link #extend}). O(1).
     */
    void moved(int member, int b) {
        if (!listed[member]) {
            tree[leaves + member] = b;
        }
    }

    /** Recomputes every subtree's bound from the leaves and starts the walk over from the root. O(members). */
    private void replant() {
        for (int p = leaves - 1; p >= 1; p--) {
            tree[p] = Math.min(tree[2 * p], tree[2 * p + 1]);
        }
        heap.clear();
        stale = 0;
        push(1, tree[1]);
    }

    /** The member's bound on the profile as it is now. */
    private int fresh(int member) {
        return index.currentBound(member, level);
    }

    /** Whether entry {@code i}'s node changed after its bound was computed. */
    boolean stale(int i) {
        return index.changedAt(member[i]) > stamp[i];
    }

    /**
     * Recomputes stale entry {@code i}: a later bound removes it here and lists it again where it now belongs (after
     * {@code i}), or returns it to the tree walk when it is past the frontier. Entries before {@code i} do not move.
     */
    void refresh(int i) {
        int m = member[i];
        int f = fresh(m);
        stamp[i] = index.clock();
        if (f == bound[i]) {
            return;
        }
        member[i] = -1;
        listed[m] = false;
        removed++;
        if (f == NONE) {
            return;
        }
        if (f > frontier) {
            tree[leaves + m] = f; // back in the tree (its subtrees are not queued), and the leaf alone in the queue
            push(leaves + m, f);
            return;
        }
        int at = upperBound(i + 1, f);
        grow();
        System.arraycopy(member, at, member, at + 1, size - at);
        System.arraycopy(bound, at, bound, at + 1, size - at);
        System.arraycopy(stamp, at, stamp, at + 1, size - at);
        member[at] = m;
        listed[m] = true;
        bound[at] = f;
        stamp[at] = index.clock();
        size++;
    }

    /** Drops removed entries when they are many. Only between searches: it moves entries. */
    void compact() {
        if (removed < 64 || removed < size / 2) {
            return;
        }
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (member[i] >= 0) {
                member[n] = member[i];
                bound[n] = bound[i];
                stamp[n++] = stamp[i];
            }
        }
        size = n;
        removed = 0;
    }

    /**
     * Lists the next node from the tree walk; false when no node is left. A leaf met at a bound that has since moved
     * later goes back in the queue at its bound now; when that has happened often, the subtrees' bounds are recomputed
     * first ({@link #replant}).
     */
    boolean extend() {
        if (stale > 64 && stale > listed.length / 8) {
            replant();
        }
        walk:
        while (!heap.isEmpty()) {
            long key = heap.poll();
            int b = (int) (key >>> POSITION_BITS);
            int p = (int) (key & POSITION_MASK);
            if (tree[p] > b) {
                stale++;
                push(p, tree[p]);
                continue;
            }
            // Down towards the smaller bound while nothing queued comes first; the other child waits in the queue.
            while (p < leaves) {
                int l = tree[2 * p];
                int r = tree[2 * p + 1];
                int child = l <= r ? 2 * p : 2 * p + 1;
                push(child ^ 1, Math.max(l, r));
                p = child;
                b = Math.min(l, r);
                if (b == NONE) {
                    continue walk;
                }
                if (!heap.isEmpty() && (int) (heap.peek() >>> POSITION_BITS) < b) {
                    push(p, b);
                    continue walk;
                }
            }
            int m = p - leaves;
            if (m >= listed.length) {
                continue;
            }
            grow();
            b = Math.max(b, frontier); // no later than the true bound: nothing unlisted starts before the frontier
            member[size] = m;
            bound[size] = b;
            stamp[size++] = index.clock();
            listed[m] = true;
            tree[p] = NONE;
            frontier = b;
            return true;
        }
        return false;
    }

    private int upperBound(int from, int value) {
        int lo = from;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (bound[mid] <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private void grow() {
        if (size == member.length) {
            member = Arrays.copyOf(member, size * 2);
            bound = Arrays.copyOf(bound, size * 2);
            stamp = Arrays.copyOf(stamp, size * 2);
        }
    }

    private void push(int position, int b) {
        if (b == NONE) {
            return;
        }
        heap.add(((long) b << POSITION_BITS) | position);
    }
}
