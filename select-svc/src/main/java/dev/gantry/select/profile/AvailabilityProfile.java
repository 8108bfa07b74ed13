package dev.gantry.select.profile;

import java.util.Arrays;

/**
 * Free resources of every node over future time: per node a step function of free CPUs, free memory (MiB) and free
 * GRES units, starting at {@code now}. Built from what is free now and when running jobs give their resources back
 * (start + time limit); reservations made for pending jobs subtract from it, so each later job plans around earlier
 * ones (conservative backfill). Times are epoch seconds; {@link #NEVER} is "not within any horizon".
 *
 * <p>Resolution: counts, not unit ids — a reservation names nodes and a start time; which cores it gets is decided
 * when it starts. GRES are counted in total per node, whatever their name or type. Sharing (OverSubscribe) is not
 * modelled in the future: reserved CPUs are exclusive.
 *
 * <p>Layout: one {@code long[]} per node (one pointer to follow, segments side by side): a header (segment count, and
 * the most CPUs, memory and GRES free in any middle segment) and then per segment its start time, free memory, and
 * free CPUs and GRES packed in one long.
 *
 * <p>Not thread-safe; one per Plan call.
 */
public final class AvailabilityProfile {

    public static final long NEVER = Long.MAX_VALUE;

    // Per node: [0] segments, then the most free in any segment strictly between the first (now) and the last (the
    // open-ended tail) — [1] CPUs, [2] memory, [3] GRES: a window that does not start now and needs more than that can
    // only start in the tail, so its earliest start is found without scanning the middle. Kept up to date on every
    // change of the node. Segment j from HEADER + STRIDE * j: start time, free memory, free CPUs << 32 | free GRES.
    private static final int HEADER = 4;
    private static final int STRIDE = 3;

    private final long now;
    private final long[][] nodes;
    private boolean reserved;
    private final java.util.List<StartIndex> indexes = new java.util.ArrayList<>(2);

    /** Where a node's profile starts: what is free now and when running jobs give resources back. */
    public interface Source {
        int freeCpus(int node);

        long freeMemoryMb(int node);

        int freeGres(int node);

        /** Calls {@code sink} once per running job's share of the node that ends at a known time. */
        void releases(int node, Release sink);
    }

    @FunctionalInterface
    public interface Release {
        void at(long time, int cpuCount, long memoryMb, int gresCount);
    }

    private final Source source;

    /**
     * A profile over {@code nodes} nodes whose step functions are built from {@code source} when a node is first
     * touched, so a query that looks at few nodes costs little. {@code source} must not change while this is in use.
     */
    public AvailabilityProfile(long now, int nodes, Source source) {
        this.now = now;
        this.source = source;
        this.nodes = new long[nodes][];
    }

    /** Every node with {@code freeCpus[i]}, {@code freeMemory[i]}, {@code freeGres[i]} from {@code now} on. */
    public AvailabilityProfile(long now, int[] freeCpus, long[] freeMemory, int[] freeGres) {
        this(now, freeCpus.length, new Source() {
            public int freeCpus(int node) {
                return freeCpus[node];
            }

            public long freeMemoryMb(int node) {
                return freeMemory[node];
            }

            public int freeGres(int node) {
                return freeGres[node];
            }

            public void releases(int node, Release sink) { }
        });
    }

    private static long pack(int cpus, int gres) {
        return ((long) cpus << 32) | (gres & 0xFFFF_FFFFL);
    }

    private static int cpus(long packed) {
        return (int) (packed >> 32);
    }

    private static int gres(long packed) {
        return (int) packed;
    }

    /** The node's array, built from the source at its first use. */
    private long[] of(int node) {
        long[] a = nodes[node];
        if (a != null) {
            return a;
        }
        a = new long[HEADER + STRIDE * 4];
        a[0] = 1;
        a[HEADER] = now;
        a[HEADER + 1] = source.freeMemoryMb(node);
        a[HEADER + 2] = pack(source.freeCpus(node), source.freeGres(node));
        nodes[node] = a;
        source.releases(node, (time, c, m, g) -> add(node, Math.max(now, time), NEVER, c, m, g));
        summarize(nodes[node]);
        return nodes[node];
    }

    private static void summarize(long[] a) {
        int c = Integer.MIN_VALUE;
        long m = Long.MIN_VALUE;
        int g = Integer.MIN_VALUE;
        int len = (int) a[0];
        for (int j = 1; j < len - 1; j++) {
            int at = HEADER + STRIDE * j;
            c = Math.max(c, cpus(a[at + 2]));
            m = Math.max(m, a[at + 1]);
            g = Math.max(g, gres(a[at + 2]));
        }
        a[1] = c;
        a[2] = m;
        a[3] = g;
    }

    public long now() {
        return now;
    }

    public int nodeCount() {
        return nodes.length;
    }

    /** Whether any reservation was made (before that, what is free now stays free). */
    public boolean hasReservations() {
        return reserved;
    }

    /**
     * Resources come back to {@code node} at {@code time} (a running job's expected end). Times ≤ now count as now.
     * Precondition: no {@link #index} made yet — an index relies on the profile only losing resources from then on.
     */
    public void release(int node, long time, int cpuCount, long memoryMb, int gresCount) {
        if (!indexes.isEmpty()) {
            throw new IllegalStateException("release after an index was made: its bounds would no longer be lower bounds");
        }
        of(node);
        add(node, Math.max(now, time), NEVER, cpuCount, memoryMb, gresCount);
        changed(node);
    }

    /** Takes resources from {@code node} over [start, end) for a reservation or a start. */
    public void reserve(int node, long start, long end, long cpuCount, long memoryMb, int gresCount) {
        reserved = true;
        of(node);
        add(node, start, end, -Math.toIntExact(cpuCount), -memoryMb, -gresCount);
        changed(node);
    }

    /**
     * A {@link StartIndex} over {@code nodes} (e.g. a partition's members), told of every later change of this
     * profile. Builds the profile of each of those nodes now.
     */
    public StartIndex index(int[] nodes) {
        for (int node : nodes) {
            of(node);
        }
        StartIndex index = new StartIndex(this, nodes);
        indexes.add(index);
        return index;
    }

    private void changed(int node) {
        for (int i = 0; i < indexes.size(); i++) {
            indexes.get(i).changed(node);
        }
    }

    /**
     * For each CPU threshold k and duration d: the start of {@code node}'s first run of time with at least
     * {@code thresholds[k]} CPUs free throughout and at least {@code durations[d]} seconds long (the open-ended tail is
     * as long as any), or {@link #NEVER}; written to {@code out[offset + k * durations.length + d]}. Durations ascend.
     * O(thresholds × segments).
     */
    void runStarts(int node, int[] thresholds, long[] durations, long[] out, int offset) {
        long[] a = of(node);
        int len = (int) a[0];
        int classes = durations.length;
        for (int k = 0; k < thresholds.length; k++) {
            int at = offset + k * classes;
            int done = 0;
            long runStart = NEVER;
            for (int j = 0; j <= len && done < classes; j++) {
                boolean in = j < len && cpus(a[HEADER + STRIDE * j + 2]) >= thresholds[k];
                if (in && runStart == NEVER) {
                    runStart = a[HEADER + STRIDE * j];
                } else if (!in && runStart != NEVER) {
                    long runLength = j < len ? a[HEADER + STRIDE * j] - runStart : NEVER;
                    while (done < classes && durations[done] <= runLength) {
                        out[at + done++] = runStart;
                    }
                    runStart = NEVER;
                }
            }
            while (done < classes) {
                out[at + done++] = NEVER;
            }
        }
    }

    /** Whether {@code node} has the demand free during all of [start, end). */
    public boolean fits(int node, long start, long end, long cpuCount, long memoryMb, int gresCount) {
        long[] a = of(node);
        int len = (int) a[0];
        for (int j = segmentAt(a, start); j < len; j++) {
            int at = HEADER + STRIDE * j;
            if (a[at] >= end) {
                break;
            }
            long packed = a[at + 2];
            if (cpus(packed) < cpuCount || a[at + 1] < memoryMb || gres(packed) < gresCount) {
                return false;
            }
        }
        return true;
    }

    /**
     * The earliest time ≥ {@code from} at which {@code node} has the demand free for {@code duration} seconds, or
     * {@link #NEVER}. O(segments of the node).
     */
    public long earliest(int node, long from, long duration, long cpuCount, long memoryMb, int gresCount) {
        return earliest(node, from, duration, cpuCount, memoryMb, gresCount, NEVER);
    }

    /** As {@link #earliest(int, long, long, long, long, int)}, but gives up ({@link #NEVER}) past {@code cutoff}. */
    public long earliest(int node, long from, long duration, long cpuCount, long memoryMb, int gresCount, long cutoff) {
        long[] a = of(node);
        int len = (int) a[0];
        int last = HEADER + STRIDE * (len - 1);
        if (cpuCount > a[1] || memoryMb > a[2] || gresCount > a[3]) {
            // No middle segment has room: the window starts in the first segment (and runs while segments fit) or in
            // the tail.
            for (int j = 0; j < len && (len == 1 || from < a[HEADER + STRIDE]); j++) {
                int at = HEADER + STRIDE * j;
                long packed = a[at + 2];
                if (cpus(packed) < cpuCount || a[at + 1] < memoryMb || gres(packed) < gresCount) {
                    break;
                }
                long segmentEnd = j + 1 < len ? a[at + STRIDE] : NEVER;
                if (segmentEnd == NEVER || segmentEnd - from >= duration) {
                    return from;
                }
            }
            long tail = a[last + 2];
            boolean tailFits = cpus(tail) >= cpuCount && a[last + 1] >= memoryMb && gres(tail) >= gresCount;
            return tailFits && a[last] <= cutoff ? Math.max(from, a[last]) : NEVER;
        }
        int start = segmentAt(a, from);
        long candidate = Math.max(from, a[HEADER + STRIDE * start]);
        for (int j = start; j < len; j++) {
            int at = HEADER + STRIDE * j;
            long packed = a[at + 2];
            boolean ok = cpus(packed) >= cpuCount && a[at + 1] >= memoryMb && gres(packed) >= gresCount;
            if (!ok) {
                if (j + 1 >= len || a[at + STRIDE] > cutoff) {
                    return NEVER;
                }
                candidate = a[at + STRIDE];
                continue;
            }
            long segmentEnd = j + 1 < len ? a[at + STRIDE] : NEVER;
            if (segmentEnd == NEVER || segmentEnd - candidate >= duration) {
                return candidate;
            }
        }
        return NEVER;
    }

    /** Free CPUs on {@code node} at {@code time}. */
    public int freeCpusAt(int node, long time) {
        long[] a = of(node);
        return cpus(a[HEADER + STRIDE * segmentAt(a, time) + 2]);
    }

    /** The most CPUs {@code node} has free at any time. */
    public int mostFreeCpus(int node) {
        long[] a = of(node);
        int most = Integer.MIN_VALUE;
        for (int j = 0; j < a[0]; j++) {
            most = Math.max(most, cpus(a[HEADER + STRIDE * j + 2]));
        }
        return most;
    }

    /** Free memory on {@code node} at {@code time}. */
    public long freeMemoryAt(int node, long time) {
        long[] a = of(node);
        return a[HEADER + STRIDE * segmentAt(a, time) + 1];
    }

    /** Breakpoints (segment starts) of {@code node}: for tests and the benchmark's size estimate. */
    public int segments(int node) {
        return (int) of(node)[0];
    }

    /** The segment holding {@code time}: the last one starting at or before it (0 for times before now). */
    private static int segmentAt(long[] a, long time) {
        int lo = 0;
        int hi = (int) a[0] - 1;
        if (time <= a[HEADER]) {
            return 0;
        }
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (a[HEADER + STRIDE * mid] <= time) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private void add(int node, long start, long end, int dCpu, long dMem, int dGres) {
        start = Math.max(start, now);
        if (start >= end) {
            return;
        }
        int from = split(node, start);
        int to = end == NEVER ? (int) nodes[node][0] : split(node, end);
        long[] a = nodes[node];
        for (int j = from; j < to; j++) {
            int at = HEADER + STRIDE * j;
            a[at + 1] += dMem;
            a[at + 2] = pack(cpus(a[at + 2]) + dCpu, gres(a[at + 2]) + dGres);
        }
        summarize(a);
    }

    /** Makes {@code time} a breakpoint of {@code node}; returns its segment index. */
    private int split(int node, long time) {
        long[] a = nodes[node];
        int len = (int) a[0];
        int k = segmentAt(a, time);
        if (a[HEADER + STRIDE * k] == time) {
            return k;
        }
        int at = k + 1; // time > segment k's start (the first segment starts at now ≤ time)
        if (HEADER + STRIDE * (len + 1) > a.length) {
            a = Arrays.copyOf(a, HEADER + STRIDE * (len * 2));
            nodes[node] = a;
        }
        int from = HEADER + STRIDE * at;
        System.arraycopy(a, from, a, from + STRIDE, STRIDE * (len - at));
        // The new segment starts with the values of the one it splits.
        a[from] = time;
        a[from + 1] = a[from - STRIDE + 1];
        a[from + 2] = a[from - STRIDE + 2];
        a[0] = len + 1;
        return at;
    }
}
