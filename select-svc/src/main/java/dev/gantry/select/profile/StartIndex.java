package dev.gantry.select.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds nodes in order of their earliest start for a demand without visiting every node. For CPU levels 1, 2, …, 8,
 * 9, 10, 11, 13, 15, … (about 19/16 apart) and durations 0, 10 min, 20 min, 40 min, … 64 h, a {@link StartList} keeps
 * the nodes in ascending order of the start of their first run of at least that many CPUs free for at least that
 * long. A node cannot start a job that needs d CPUs for t seconds before its bound at the largest level ≤ d and the
 * longest duration ≤ t, so a search walks that level's list, resolves each node's exact start, and hands nodes out in
 * ascending order of the exact start as soon as no listed bound comes before them: it stops as soon as it has what it
 * needs.
 *
 * <p>Lazy, and kept across the searches of one call: a level's list is made at its first search and extended only as
 * far as searches read it. A change of a node ({@link #changed}) re-reads its bounds at every level in one pass and
 * updates the leaves of the levels in use; entries already listed are re-read when a search meets them. This is sound
 * because a call's profile only loses resources, so an old bound is still a lower bound (see {@link StartList}).
 *
 * <p>Made by {@link AvailabilityProfile#index}, which reports every change of a node. Not thread-safe; starting a
 * search ends the previous one of this index.
 */
public final class StartIndex {

    /** How one node's exact earliest start is computed (NEVER: not eligible, or not before the cutoff). */
    @FunctionalInterface
    public interface NodeStart {
        /** The node's earliest start ≥ {@code from} and ≤ {@code cutoff}, or {@link AvailabilityProfile#NEVER}. */
        long earliest(int node, long from, long cutoff);
    }

    private static final long[] DURATIONS = {0, 600, 1_200, 2_400, 4_800, 9_600, 19_200, 38_400, 76_800, 153_600, 230_400};
    /** Bounds further than this from now count as none (about 68 years): searches end there. */
    private static final long HORIZON = StartList.NONE - 1L;
    private static final int MEMBER_BITS = 21;

    private final AvailabilityProfile profile;
    private final int[] nodes;
    private final int[] memberOf;
    private final int[] thresholds;
    private final StartList[] lists;
    private final long[] changedAt;
    // Member-major: every level's bound of each member, now (re-read for all levels at once on every change).
    private final int[] bounds;
    private final long[] starts;
    private final int levels;
    private long clock;
    /** The current search's resolved nodes: (exact start, member) keys, earliest first. */
    private final LongHeap resolved = new LongHeap();

    StartIndex(AvailabilityProfile profile, int[] nodes) {
        if (nodes.length > 1 << 19) {
            throw new IllegalArgumentException("at most 2^19 nodes per index, got " + nodes.length);
        }
        this.profile = profile;
        this.nodes = nodes.clone();
        memberOf = new int[profile.nodeCount()];
        Arrays.fill(memberOf, -1);
        int most = 1;
        for (int i = 0; i < nodes.length; i++) {
            memberOf[nodes[i]] = i;
            most = Math.max(most, profile.mostFreeCpus(nodes[i]));
        }
        List<Integer> steps = new ArrayList<>();
        for (long step = 1; step <= most; step = Math.max(step + 1, step * 19 / 16)) {
            steps.add((int) step);
        }
        thresholds = steps.stream().mapToInt(Integer::intValue).toArray();
        levels = thresholds.length * DURATIONS.length;
        lists = new StartList[levels];
        changedAt = new long[nodes.length];
        bounds = new int[nodes.length * levels];
        starts = new long[levels];
        for (int i = 0; i < nodes.length; i++) {
            profile.runStarts(nodes[i], thresholds, DURATIONS, starts, 0);
            for (int k = 0; k < levels; k++) {
                bounds[i * levels + k] = bound(starts[k]);
            }
        }
    }

    /** {@code member}'s bound at {@code level} on the profile as it is now. */
    int currentBound(int member, int level) {
        return bounds[member * levels + level];
    }

    /**
     * Re-reads {@code node} after it changed on the profile: its bound at every level (one pass over its segments), and
     * tells the levels in use whose bound moved. Ignores nodes not in this index. O(levels × segments).
     */
    void changed(int node) {
        int m = memberOf[node];
        if (m < 0) {
            return;
        }
        changedAt[m] = ++clock;
        profile.runStarts(node, thresholds, DURATIONS, starts, 0);
        int at = m * levels;
        for (int k = 0; k < levels; k++) {
            int b = bound(starts[k]);
            if (b != bounds[at + k]) {
                bounds[at + k] = b;
                if (lists[k] != null) {
                    lists[k].moved(m, b);
                }
            }
        }
    }

    AvailabilityProfile profile() {
        return profile;
    }

    int members() {
        return nodes.length;
    }

    int node(int member) {
        return nodes[member];
    }

    long clock() {
        return clock;
    }

    long changedAt(int member) {
        return changedAt[member];
    }

    /** {@code time} (epoch seconds, ≥ now, or NEVER) as a bound in seconds after now; NONE past the horizon. */
    int bound(long time) {
        return time == AvailabilityProfile.NEVER || time - profile.now() > HORIZON ? StartList.NONE
                : (int) (time - profile.now());
    }

    /**
     * A search for nodes able to start a job that needs at least {@code minCpus} CPUs on every node for
     * {@code duration} seconds (NEVER: unlimited), in ascending order of {@code exact}'s answer (ties: in the order
     * the level's list holds them), none later than {@code cutoff}.
     */
    public Search search(long minCpus, long duration, long cutoff, NodeStart exact) {
        int k = 0;
        while (k + 1 < thresholds.length && thresholds[k + 1] <= minCpus) {
            k++;
        }
        int d = 0;
        while (d + 1 < DURATIONS.length && DURATIONS[d + 1] <= duration) {
            d++;
        }
        int level = k * DURATIONS.length + d;
        if (lists[level] == null) {
            lists[level] = new StartList(this, level);
        }
        StartList list = lists[level];
        list.compact();
        return new Search(list, bound(Math.min(cutoff, profile.now() + HORIZON)), exact);
    }

    /**
     * One walk down a level's list: entries are resolved to exact starts in list order and held in a small heap; a
     * node comes out when its exact start is no later than the next entry's bound (which bounds every node not yet
     * resolved). Not thread-safe.
     */
    public final class Search implements StartOrder {
        private final StartList list;
        private final int cutoff;
        private final NodeStart exact;
        private int at;
        private long time;

        private Search(StartList list, int cutoff, NodeStart exact) {
            this.list = list;
            this.cutoff = cutoff;
            this.exact = exact;
            resolved.clear();
        }

        @Override
        public int next() {
            while (true) {
                int b = nextBound();
                if (!resolved.isEmpty() && (int) (resolved.peek() >>> MEMBER_BITS) <= b) {
                    return take();
                }
                if (b > cutoff) {
                    return resolved.isEmpty() ? -1 : take();
                }
                if (list.stale(at)) {
                    list.refresh(at);
                    continue;
                }
                int m = list.member[at++];
                long e = exact.earliest(nodes[m], profile.now() + b, profile.now() + cutoff);
                if (e != AvailabilityProfile.NEVER && e - profile.now() <= cutoff) {
                    resolved.add((e - profile.now()) << MEMBER_BITS | m);
                }
            }
        }

        @Override
        public long time() {
            return time;
        }

        @Override
        public long peek() {
            int b = nextBound();
            long first = resolved.isEmpty() ? b : Math.min(b, resolved.peek() >>> MEMBER_BITS);
            return first > cutoff ? AvailabilityProfile.NEVER : profile.now() + first;
        }

        /** The bound of the next entry not yet resolved (extending the list as needed); NONE when there is none. */
        private int nextBound() {
            while (true) {
                if (at >= list.size && !list.extend()) {
                    return StartList.NONE;
                }
                if (list.member[at] >= 0) {
                    return list.bound[at];
                }
                at++;
            }
        }

        /** Takes the earliest resolved node: its start becomes {@link #time()}. */
        private int take() {
            long top = resolved.poll();
            time = profile.now() + (top >>> MEMBER_BITS);
            return nodes[(int) (top & ((1L << MEMBER_BITS) - 1))];
        }
    }
}
