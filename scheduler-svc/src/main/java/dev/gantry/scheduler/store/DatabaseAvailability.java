package dev.gantry.scheduler.store;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Whether the database commits now, as the group-commit writer and the runtime's watch see it: up, or down with a
 * cause. Going down fails every caller still waiting for a commit ({@link #unlessDown}) with {@link DatabaseUnavailable}
 * (what they wait for stays queued and commits once the database is back: it is not lost, only not acknowledged).
 * Listeners hear each change once, on the thread that made it. Thread-safe.
 */
public final class DatabaseAvailability {

    private volatile DatabaseUnavailable outage;
    private final Set<CompletableFuture<?>> waiting = ConcurrentHashMap.newKeySet();
    private final java.util.List<Consumer<Optional<String>>> listeners = new CopyOnWriteArrayList<>();

    /** The outage, if the database is down. */
    public Optional<DatabaseUnavailable> outage() {
        return Optional.ofNullable(outage);
    }

    public boolean isUp() {
        return outage == null;
    }

    /** Told every change: the cause when the database goes down, empty when it is back. */
    public void onChange(Consumer<Optional<String>> listener) {
        listeners.add(listener);
    }

    /** Marks the database down (no effect if it is already down); fails every caller waiting for a commit. */
    public void down(String cause) {
        DatabaseUnavailable d = new DatabaseUnavailable(cause);
        synchronized (this) {
            if (outage != null) {
                return;
            }
            outage = d;
        }
        for (CompletableFuture<?> f : waiting) {
            f.completeExceptionally(d);
        }
        listeners.forEach(l -> l.accept(Optional.of(cause)));
    }

    /** Marks the database up again (no effect if it is up). */
    public void up() {
        synchronized (this) {
            if (outage == null) {
                return;
            }
            outage = null;
        }
        listeners.forEach(l -> l.accept(Optional.empty()));
    }

    /**
     * What a caller waits for: {@code durable}'s outcome, or {@link DatabaseUnavailable} if the database is down, or
     * goes down, before it completes. {@code durable} itself is left to complete (the write commits later).
     */
    public <T> CompletableFuture<T> unlessDown(CompletableFuture<T> durable) {
        if (durable.isDone()) {
            return durable;
        }
        DatabaseUnavailable d = outage;
        if (d != null) {
            return CompletableFuture.failedFuture(d);
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
        waiting.add(answer);
        durable.whenComplete((v, e) -> {
            waiting.remove(answer);
            if (e != null) {
                answer.completeExceptionally(e);
            } else {
                answer.complete(v);
            }
        });
        d = outage; // went down between the check and the registration
        if (d != null) {
            answer.completeExceptionally(d);
        }
        return answer;
    }
}
