package dev.gantry.scheduler.runtime;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes that stream feeds may hold queued together (SlurmctldParameters watch_buffer_mb): whatever the number of
 * watchers and however slowly they read, their backlogs never take more of the controller's memory than this.
 * Thread-safe.
 */
public final class FeedBudget {

    /** No limit (the controller's internal event stream). */
    public static final FeedBudget UNLIMITED = new FeedBudget(Long.MAX_VALUE);

    private final long capacity;
    private final AtomicLong used = new AtomicLong();

    /** @param capacity bytes; see {@link #ofMegabytes} */
    public FeedBudget(long capacity) {
        this.capacity = capacity;
    }

    /** watch_buffer_mb: that many MiB, or, for 0, a quarter of the heap this JVM may grow to. */
    public static FeedBudget ofMegabytes(long mb) {
        return new FeedBudget(mb > 0 ? mb << 20 : Runtime.getRuntime().maxMemory() / 4);
    }

    /** Takes {@code bytes} if they fit; false (nothing taken) otherwise. */
    boolean reserve(long bytes) {
        while (true) {
            long now = used.get();
            if (bytes > capacity - now) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    public long capacity() {
        return capacity;
    }

    /** Bytes held now. */
    public long used() {
        return used.get();
    }
}
