package dev.gantry.scheduler.store;

import java.util.Optional;

/**
 * Named values the controller keeps besides jobs (QOS edits, the fair-share ledger), each replaced as a whole.
 * Thread-safe; {@link #put} returns once committed.
 */
public interface StateStore {

    void put(String name, byte[] value) throws StoreException;

    Optional<byte[]> get(String name) throws StoreException;

    /** Keeps values in memory (tests, and a controller without a database). */
    final class InMemory implements StateStore {
        private final java.util.concurrent.ConcurrentHashMap<String, byte[]> values = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public void put(String name, byte[] value) {
            values.put(name, value.clone());
        }

        @Override
        public Optional<byte[]> get(String name) {
            return Optional.ofNullable(values.get(name)).map(byte[]::clone);
        }
    }
}
