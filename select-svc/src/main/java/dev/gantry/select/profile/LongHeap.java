package dev.gantry.select.profile;

import java.util.Arrays;

/**
 * A binary min-heap of {@code long} keys on a growable array, without boxing: {@link StartList}'s walk down its tree
 * and {@link StartIndex}'s searches order packed (bound or time, position or member) keys with it. Not thread-safe.
 */
final class LongHeap {

    private long[] keys = new long[64];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    /** The least key; the heap must not be empty. */
    long peek() {
        return keys[0];
    }

    void clear() {
        size = 0;
    }

    void add(long key) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
        }
        int c = size++;
        while (c > 0 && keys[(c - 1) >>> 1] > key) {
            keys[c] = keys[(c - 1) >>> 1];
            c = (c - 1) >>> 1;
        }
        keys[c] = key;
    }

    /** Removes and returns the least key; the heap must not be empty. */
    long poll() {
        long top = keys[0];
        long last = keys[--size];
        int p = 0;
        while (true) {
            int l = 2 * p + 1;
            if (l >= size) {
                break;
            }
            int c = l + 1 < size && keys[l + 1] < keys[l] ? l + 1 : l;
            if (keys[c] >= last) {
                break;
            }
            keys[p] = keys[c];
            p = c;
        }
        keys[p] = last;
        return top;
    }
}
