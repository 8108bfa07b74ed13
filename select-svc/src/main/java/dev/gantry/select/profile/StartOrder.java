package dev.gantry.select.profile;

/** Nodes in ascending order of their earliest start for one demand, as a search finds them. Not thread-safe. */
public interface StartOrder {

    /** The next node, or -1 when no other starts by the search's cutoff. */
    int next();

    /** The earliest start of the node {@link #next} returned last. */
    long time();

    /** A lower bound of the next node's earliest start; {@link AvailabilityProfile#NEVER} when none is left. */
    long peek();

    /**
     * Every node of {@code nodes} (at most 2^21) with an earliest start by {@code cutoff}, computed one by one and
     * heaped (ties by position in {@code nodes}): for a call that searches only a few times, where building a
     * {@link StartIndex} would cost more than it saves.
     */
    static StartOrder scan(int[] nodes, long from, long cutoff, StartIndex.NodeStart exact) {
        long[] heap = new long[nodes.length];
        int n = 0;
        for (int i = 0; i < nodes.length; i++) {
            long e = exact.earliest(nodes[i], from, cutoff);
            if (e != AvailabilityProfile.NEVER && e <= cutoff && e - from < 1L << 42) {
                heap[n++] = ((e - from) << 21) | i;
            }
        }
        int size = n;
        for (int i = size / 2 - 1; i >= 0; i--) {
            down(heap, size, i);
        }
        return new StartOrder() {
            private int left = size;
            private long time;

            public int next() {
                if (left == 0) {
                    return -1;
                }
                long top = heap[0];
                heap[0] = heap[--left];
                down(heap, left, 0);
                time = from + (top >>> 21);
                return nodes[(int) (top & ((1 << 21) - 1))];
            }

            public long time() {
                return time;
            }

            public long peek() {
                return left == 0 ? AvailabilityProfile.NEVER : from + (heap[0] >>> 21);
            }
        };
    }

    private static void down(long[] heap, int size, int p) {
        while (true) {
            int l = 2 * p + 1;
            int m = p;
            if (l < size && heap[l] < heap[m]) {
                m = l;
            }
            if (l + 1 < size && heap[l + 1] < heap[m]) {
                m = l + 1;
            }
            if (m == p) {
                return;
            }
            long t = heap[p];
            heap[p] = heap[m];
            heap[m] = t;
            p = m;
        }
    }
}
