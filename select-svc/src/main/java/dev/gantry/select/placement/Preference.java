package dev.gantry.select.placement;

import java.util.Arrays;

/**
 * The order nodes are taken in, most preferred first, packed in one long per node so the best k of n are found in
 * O(n log k) without boxing:
 * <ol>
 *   <li>lower Weight: Slurm allocates the lowest-weight nodes that satisfy a job first
 *       (https://slurm.schedmd.com/slurm.conf.html#OPT_Weight);</li>
 *   <li>best fit: fewest CPUs usable at the sharing level tried (the free ones at level 0, see {@link NodeSelector})
 *       that still fit, so larger holes stay open for larger jobs (fewest fragments), and a node busy with jobs the
 *       level allows sharing with is not preferred to an idle one;</li>
 *   <li>node order in the replica (config order), the stable tie-break.</li>
 * </ol>
 */
final class Preference {
    private Preference() {}

    private static final int INDEX_BITS = 27;
    private static final int FREE_BITS = 20;

    static long key(int weight, long freeCpus, int index) {
        long w = Math.clamp(weight + 32_768L, 0, 65_535);
        long free = Math.clamp(freeCpus, 0, (1L << FREE_BITS) - 1);
        return (w << (INDEX_BITS + FREE_BITS)) | (free << INDEX_BITS) | index;
    }

    static int index(long key) {
        return (int) (key & ((1L << INDEX_BITS) - 1));
    }

    /** The {@code k} smallest of {@code keys[0..n)}, ascending. */
    static long[] best(long[] keys, int n, int k) {
        if (k <= 0) {
            return new long[0]; // every node the job needs is a required (-w) node
        }
        if (k >= n) {
            long[] all = Arrays.copyOf(keys, n);
            Arrays.sort(all);
            return all;
        }
        Smallest smallest = new Smallest(k);
        for (int i = 0; i < n; i++) {
            smallest.offer(keys[i]);
        }
        return smallest.sorted();
    }

    /** The k smallest values offered so far, without boxing: a bounded max-heap. Not thread-safe. */
    static final class Smallest {
        private final long[] heap;
        private int size;

        Smallest(int k) {
            heap = new long[Math.max(1, k)];
        }

        boolean full() {
            return size == heap.length;
        }

        /** The values kept, ascending. */
        long[] sorted() {
            long[] out = Arrays.copyOf(heap, size);
            Arrays.sort(out);
            return out;
        }

        /** The largest of the k smallest (the cutoff); meaningful when {@link #full}. */
        long largest() {
            return heap[0];
        }

        void offer(long v) {
            if (size < heap.length) {
                heap[size] = v;
                int c = size++;
                while (c > 0 && heap[(c - 1) / 2] < heap[c]) {
                    swap(heap, c, (c - 1) / 2);
                    c = (c - 1) / 2;
                }
            } else if (v < heap[0]) {
                heap[0] = v;
                int p = 0;
                while (true) {
                    int l = 2 * p + 1;
                    int r = l + 1;
                    int m = p;
                    if (l < size && heap[l] > heap[m]) {
                        m = l;
                    }
                    if (r < size && heap[r] > heap[m]) {
                        m = r;
                    }
                    if (m == p) {
                        return;
                    }
                    swap(heap, p, m);
                    p = m;
                }
            }
        }
    }

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
