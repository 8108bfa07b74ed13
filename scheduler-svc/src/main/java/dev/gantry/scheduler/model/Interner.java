package dev.gantry.scheduler.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Shares equal immutable values: {@link #intern} answers the value made recently for an equal key instead of making
 * another, so the many jobs of one submitter (a shell loop of sbatch, every task of an array, every job read back from
 * the database) hold one copy of what they have in common — the submitted environment above all, some 40 variables
 * per job, which would otherwise be most of the controller's memory for a large queue. Remembers the {@code capacity}
 * keys used last (an LRU); safe to call from any thread (a cache: which of two equal values is answered never
 * matters, since they are equal and immutable).
 */
final class Interner<K, V> {

    private final Map<K, V> recent;

    Interner(int capacity) {
        this.recent = new LinkedHashMap<>(capacity * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The value held for a key equal to {@code key}, or {@code make}'s for it (then held). */
    synchronized V intern(K key, Function<K, V> make) {
        return recent.computeIfAbsent(key, make);
    }
}
