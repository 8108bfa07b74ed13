package dev.gantry.select.profile;

import java.util.Arrays;

/**
 * A monotone priority queue of long keys whose high bits are a time: one bucket per {@code width} seconds, found
 * through an occupancy bitmap, so push and pop cost O(1) plus a short bitmap scan. Precondition: a key pushed is never
 * below the last one popped (a best-first search's order); keys of one bucket come out last in, first out, so they
 * must share one time (all times are {@code now} or multiples of {@code width}).
 *
 * <p>Reused by every search of one {@link StartIndex} ({@link #reset} starts over). Not thread-safe.
 */
final class BucketQueue {

    private final int timeShift;
    private int[] head = new int[0];
    private long[] occupied = new long[0];
    private long[] keys = new long[256];
    private int[] next = new int[256];
    private int entries;
    private int cursor;
    private int highest;
    private int width;
    private int live;

    /** @param timeShift how far the time (seconds after now) is shifted left in a key */
    BucketQueue(int timeShift) {
        this.timeShift = timeShift;
    }

    /** Empties the queue for times up to {@code span} seconds after now in buckets of {@code width} seconds. */
    void reset(long span, long width) {
        int buckets = (int) (span / width) + 2;
        if (head.length < buckets) {
            head = new int[buckets];
            occupied = new long[(buckets >> 6) + 1];
            Arrays.fill(head, -1);
        } else {
            for (int b = cursor; b <= highest; b++) {
                head[b] = -1;
            }
            Arrays.fill(occupied, cursor >> 6, (highest >> 6) + 1, 0L);
        }
        this.width = (int) width;
        entries = 0;
        cursor = 0;
        highest = 0;
        live = 0;
    }

    /** Whether {@code span} seconds fit in a queue of at most {@code limit} buckets of {@code width}. */
    static boolean fits(long span, long width, int limit) {
        return width > 0 && width < Integer.MAX_VALUE / 4 && span < Integer.MAX_VALUE / 2 && span / width < limit;
    }

    boolean isEmpty() {
        return live == 0;
    }

    void push(long key) {
        int rel = (int) (key >>> timeShift); // < span + width, which fits an int (see fits)
        int b = (rel + width - 1) / width;
        if (entries == keys.length) {
            keys = Arrays.copyOf(keys, entries * 2);
            next = Arrays.copyOf(next, entries * 2);
        }
        keys[entries] = key;
        next[entries] = head[b];
        head[b] = entries++;
        occupied[b >> 6] |= 1L << b;
        highest = Math.max(highest, b);
        live++;
    }

    /** The smallest key's bucket: its first key. Precondition: not empty. */
    long peek() {
        return keys[head[lowest()]];
    }

    long pop() {
        cursor = lowest();
        int e = head[cursor];
        head[cursor] = next[e];
        if (head[cursor] < 0) {
            occupied[cursor >> 6] &= ~(1L << cursor);
        }
        live--;
        return keys[e];
    }

    /** The lowest occupied bucket; the cursor stays at the last one popped, where pushes may still land. */
    private int lowest() {
        int word = cursor >> 6;
        long bits = occupied[word] & (-1L << cursor);
        while (bits == 0) {
            bits = occupied[++word];
        }
        return (word << 6) + Long.numberOfTrailingZeros(bits);
    }
}
