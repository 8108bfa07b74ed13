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
 * <p>Not thread-safe; one per Plan call.
 */
public final class AvailabilityProfile {

    public static final long NEVER = Long.MAX_VALUE;

    private final long now;
    private final long[][] times;
    private final int[][] cpus;
    private final long[][] memory;
    private final int[][] gres;
    private final int[] length;
    // Per node, the most free in any segment strictly between the first (now) and the last (the open-ended tail): a
    // window that does not start now and needs more than that can only start in the tail, so its earliest start is
    // found without scanning the middle. Kept up to date on every change of the node.
    private final int[] gapCpus;
    private final long[] gapMemory;
    private final int[] gapGres;
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
        times = new long[nodes][];
        cpus = new int[nodes][];
        memory = new long[nodes][];
        gres = new int[nodes][];
        length = new int[nodes];
        gapCpus = new int[nodes];
        gapMemory = new long[nodes];
        gapGres = new int[nodes];
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

    private void ensure(int node) {
        if (times[node] != null) {
            return;
        }
        times[node] = new long[] {now, 0, 0, 0};
        cpus[node] = new int[] {source.freeCpus(node), 0, 0, 0};
        memory[node] = new long[] {source.freeMemoryMb(node), 0, 0, 0};
        gres[node] = new int[] {source.freeGres(node), 0, 0, 0};
        length[node] = 1;
        source.releases(node, (time, c, m, g) -> add(node, Math.max(now, time), NEVER, c, m, g));
        summarize(node);
    }

    private void summarize(int node) {
        int c = Integer.MIN_VALUE;
        long m = Long.MIN_VALUE;
        int g = Integer.MIN_VALUE;
        for (int j = 1; j < length[node] - 1; j++) {
            c = Math.max(c, cpus[node][j]);
            m = Math.max(m, memory[node][j]);
            g = Math.max(g, gres[node][j]);
        }
        gapCpus[node] = c;
        gapMemory[node] = m;
        gapGres[node] = g;
    }

    public long now() {
        return now;
    }

    public int nodeCount() {
        return length.length;
    }

    /** Whether any reservation was made (before that, what is free now stays free). */
    public boolean hasReservations() {
        return reserved;
    }

    /** Resources come back to {@code node} at {@code time} (a running job's expected end). Times ≤ now count as now. */
    public void release(int node, long time, int cpuCount, long memoryMb, int gresCount) {
        ensure(node);
        add(node, Math.max(now, time), NEVER, cpuCount, memoryMb, gresCount);
        changed(node);
    }

    /** Takes resources from {@code node} over [start, end) for a reservation or a start. */
    public void reserve(int node, long start, long end, long cpuCount, long memoryMb, int gresCount) {
        reserved = true;
        ensure(node);
        add(node, start, end, -Math.toIntExact(cpuCount), -memoryMb, -gresCount);
        changed(node);
    }

    /**
     * A {@link StartIndex} over {@code nodes} (e.g. a partition's members), kept up to date by every later change of
     * this profile. Builds the profile of each of those nodes now.
     */
    public StartIndex index(int[] nodes) {
        for (int node : nodes) {
            ensure(node);
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
        ensure(node);
        long[] t = times[node];
        int[] c = cpus[node];
        int len = length[node];
        int classes = durations.length;
        for (int k = 0; k < thresholds.length; k++) {
            int at = offset + k * classes;
            int done = 0;
            long runStart = NEVER;
            for (int j = 0; j <= len && done < classes; j++) {
                boolean in = j < len && c[j] >= thresholds[k];
                if (in && runStart == NEVER) {
                    runStart = t[j];
                } else if (!in && runStart != NEVER) {
                    long runLength = j < len ? t[j] - runStart : NEVER;
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
        ensure(node);
        long[] t = times[node];
        int len = length[node];
        int k = segmentAt(node, start);
        for (int j = k; j < len && t[j] < end; j++) {
            if (cpus[node][j] < cpuCount || memory[node][j] < memoryMb || gres[node][j] < gresCount) {
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
        ensure(node);
        long[] t = times[node];
        int len = length[node];
        int last = len - 1;
        if (cpuCount > gapCpus[node] || memoryMb > gapMemory[node] || gresCount > gapGres[node]) {
            // No middle segment has room: the window starts in the first segment (and runs while segments fit) or in
            // the tail.
            for (int j = 0; j < len && (len == 1 || from < t[1]); j++) {
                if (cpus[node][j] < cpuCount || memory[node][j] < memoryMb || gres[node][j] < gresCount) {
                    break;
                }
                long segmentEnd = j + 1 < len ? t[j + 1] : NEVER;
                if (segmentEnd == NEVER || segmentEnd - from >= duration) {
                    return from;
                }
            }
            boolean tailFits = cpus[node][last] >= cpuCount && memory[node][last] >= memoryMb && gres[node][last] >= gresCount;
            return tailFits && t[last] <= cutoff ? Math.max(from, t[last]) : NEVER;
        }
        int start = segmentAt(node, from);
        long candidate = Math.max(from, t[start]);
        for (int j = start; j < len; j++) {
            boolean ok = cpus[node][j] >= cpuCount && memory[node][j] >= memoryMb && gres[node][j] >= gresCount;
            if (!ok) {
                if (j + 1 >= len || t[j + 1] > cutoff) {
                    return NEVER;
                }
                candidate = t[j + 1];
                continue;
            }
            long segmentEnd = j + 1 < len ? t[j + 1] : NEVER;
            if (segmentEnd == NEVER || segmentEnd - candidate >= duration) {
                return candidate;
            }
        }
        return NEVER;
    }

    /** Free CPUs on {@code node} at {@code time}. */
    public int freeCpusAt(int node, long time) {
        ensure(node);
        return cpus[node][segmentAt(node, time)];
    }

    /** The most CPUs {@code node} has free at any time. */
    public int mostFreeCpus(int node) {
        ensure(node);
        int most = Integer.MIN_VALUE;
        for (int j = 0; j < length[node]; j++) {
            most = Math.max(most, cpus[node][j]);
        }
        return most;
    }

    /** Free memory on {@code node} at {@code time}. */
    public long freeMemoryAt(int node, long time) {
        ensure(node);
        return memory[node][segmentAt(node, time)];
    }

    /** Breakpoints (segment starts) of {@code node}: for tests and the benchmark's size estimate. */
    public int segments(int node) {
        ensure(node);
        return length[node];
    }

    private int segmentAt(int node, long time) {
        if (time <= times[node][0]) {
            return 0;
        }
        int k = Arrays.binarySearch(times[node], 0, length[node], time);
        return k >= 0 ? k : Math.max(0, -k - 2);
    }

    private void add(int node, long start, long end, int dCpu, long dMem, int dGres) {
        start = Math.max(start, now);
        if (start >= end) {
            return;
        }
        int from = split(node, start);
        int to = end == NEVER ? length[node] : split(node, end);
        for (int j = from; j < to; j++) {
            cpus[node][j] += dCpu;
            memory[node][j] += dMem;
            gres[node][j] += dGres;
        }
        if (times[node] != null && length[node] > 0) {
            summarize(node);
        }
    }

    /** Makes {@code time} a breakpoint of {@code node}; returns its segment index. */
    private int split(int node, long time) {
        int k = Arrays.binarySearch(times[node], 0, length[node], time);
        if (k >= 0) {
            return k;
        }
        int at = -k - 1;
        int len = length[node];
        if (len == times[node].length) {
            int grown = len * 2;
            times[node] = Arrays.copyOf(times[node], grown);
            cpus[node] = Arrays.copyOf(cpus[node], grown);
            memory[node] = Arrays.copyOf(memory[node], grown);
            gres[node] = Arrays.copyOf(gres[node], grown);
        }
        System.arraycopy(times[node], at, times[node], at + 1, len - at);
        System.arraycopy(cpus[node], at, cpus[node], at + 1, len - at);
        System.arraycopy(memory[node], at, memory[node], at + 1, len - at);
        System.arraycopy(gres[node], at, gres[node], at + 1, len - at);
        times[node][at] = time;
        // The new segment starts with the values of the one it splits.
        cpus[node][at] = cpus[node][at - 1];
        memory[node][at] = memory[node][at - 1];
        gres[node][at] = gres[node][at - 1];
        length[node] = len + 1;
        return at;
    }
}
