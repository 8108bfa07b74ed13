package dev.gantry.scheduler.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Sends one job's suspends and resumes to each of its nodes one at a time, in the order the controller decided them:
 * the next call for a job and node starts once the previous one has answered (or failed). Calls of different jobs or
 * nodes go at once. Two calls in flight together could reach the agent in either order, and a suspend overtaken by
 * the resume decided after it would leave the job stopped while the controller says it runs. Thread-safe; a call
 * never waits on the caller's thread.
 */
final class ControlOrder {

    private record Key(long jobId, String node) {}

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    private final ConcurrentHashMap<Key, CompletableFuture<?>> tails = new ConcurrentHashMap<>();

    /** Runs {@code call} after every earlier call for the same job and node; the returned future is its answer. */
    <T> CompletableFuture<T> after(long jobId, String node, Supplier<CompletableFuture<T>> call) {
        Key key = new Key(jobId, node);
        @SuppressWarnings("unchecked")
        CompletableFuture<T>[] next = new CompletableFuture[1];
        tails.compute(key, (k, tail) -> {
            CompletableFuture<?> previous = tail == null ? DONE : tail;
            next[0] = previous.handle((r, e) -> null).thenCompose(v -> call.get());
            return next[0];
        });
        next[0].whenComplete((r, e) -> tails.remove(key, next[0]));
        return next[0];
    }

    /** Calls queued or in flight, for tests and the debug view. */
    int inFlight() {
        return tails.size();
    }
}
