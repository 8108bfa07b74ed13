package dev.gantry.scheduler.store;

import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.model.JobRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes job versions to a {@link JobStore} in batches: everything queued while one transaction commits goes
 * into the next (group commit), so many submissions share one fsync. Writes of the same job keep their order,
 * and only the newest version of a job in a batch is written. Step changes ride in the same transactions, every one
 * of them, in the order they were queued. A failed batch is retried, with growing pauses,
 * until it commits: the controller's memory stays the truth and the database catches up; except a batch refused by
 * the controller lease's fence ({@link FencedException}): this controller is deposed, so the writer fails that batch
 * and everything after it, stops, and tells its {@code onFenced}.
 *
 * <p>A failed commit marks the database down ({@link DatabaseAvailability}), a commit marks it up. Callers of
 * {@link #write} are not kept waiting through an outage: their futures fail with {@link DatabaseUnavailable} when it
 * starts (the write stays queued and commits later; it was not acknowledged). Thread-safe.
 */
public final class GroupCommitWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final int MAX_BATCH = 5000;

    /** A job version or a step change (at most one of them non-null: neither, a barrier), and who waits for its commit. */
    private record Write(JobRecord job, StepChange step, CompletableFuture<Void> done) {}

    private final JobStore store;
    private final LinkedBlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final IntConsumer batchObserver;
    private final DatabaseAvailability availability;
    private final java.util.function.Consumer<FencedException> onFenced;
    private volatile boolean running = true;
    /** Writes queued and not yet committed, the batch under way included. */
    private final java.util.concurrent.atomic.AtomicLong uncommitted = new java.util.concurrent.atomic.AtomicLong();
    /** System.nanoTime() when the commit under way began, 0 when none is. */
    private volatile long commitSince;
    private final java.util.concurrent.Semaphore retry = new java.util.concurrent.Semaphore(0);

    /** @param batchObserver told each committed batch's size (for metrics) */
    public GroupCommitWriter(JobStore store, IntConsumer batchObserver) {
        this(store, batchObserver, new DatabaseAvailability());
    }

    /** A writer whose fencing refusal is only logged (one controller, tests). */
    public GroupCommitWriter(JobStore store, IntConsumer batchObserver, DatabaseAvailability availability) {
        this(store, batchObserver, availability, e -> LOG.error("{}", e.getMessage()));
    }

    /** A writer with an availability of its own (tests of the fence). */
    public GroupCommitWriter(JobStore store, IntConsumer batchObserver, java.util.function.Consumer<FencedException> onFenced) {
        this(store, batchObserver, new DatabaseAvailability(), onFenced);
    }

    /**
     * @param batchObserver told each committed batch's size (for metrics)
     * @param availability  marked down by a failed commit and up by a commit
     * @param onFenced      told, on the writer's thread, when a batch was refused by the fence (the writer has stopped)
     */
    public GroupCommitWriter(JobStore store, IntConsumer batchObserver, DatabaseAvailability availability,
            java.util.function.Consumer<FencedException> onFenced) {
        this.store = store;
        this.batchObserver = batchObserver;
        this.availability = availability;
        this.onFenced = onFenced;
        this.thread = Thread.ofPlatform().name("group-commit").daemon(false).start(this::run);
    }

    /**
     * Queues a job version; the future completes once it is committed, or fails with {@link DatabaseUnavailable} if
     * the database is or goes down first (the version stays queued and commits when the database is back).
     */
    public CompletableFuture<Void> write(JobRecord job) {
        return availability.unlessDown(enqueue(job, null));
    }

    /** Queues a job version; the future completes once it is committed, however long the database is away. */
    public CompletableFuture<Void> commit(JobRecord job) {
        return enqueue(job, null);
    }

    /** Queues a step change; as {@link #write(JobRecord)}. */
    public CompletableFuture<Void> write(StepChange step) {
        return availability.unlessDown(enqueue(null, step));
    }

    /**
     * Completes once everything queued before it is committed (at once when nothing is), or fails as
     * {@link #write(JobRecord)}: what an answer that changes nothing waits for, so that it never acknowledges a change
     * an earlier call made that is not yet durable.
     */
    public CompletableFuture<Void> flushed() {
        if (uncommitted.get() == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return availability.unlessDown(enqueue(null, null));
    }

    /** Whether the database commits now, as this writer's commits (and the runtime's watch) judge it. */
    public DatabaseAvailability availability() {
        return availability;
    }

    /** Writes queued and not yet committed, the batch under way (or waiting to be retried) included. */
    public long uncommitted() {
        return uncommitted.get();
    }

    /** Ends the pause before the next attempt of a failed commit now (the database is back). */
    public void retryNow() {
        if (retry.availablePermits() == 0) {
            retry.release();
        }
    }

    /** How long the commit under way has taken so far, in nanoseconds (0 when none is under way). */
    public long commitNanos() {
        long since = commitSince;
        return since == 0 ? 0 : System.nanoTime() - since;
    }

    private CompletableFuture<Void> enqueue(JobRecord job, StepChange step) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (!running) {
            f.completeExceptionally(new IllegalStateException("the store is shut down"));
            return f;
        }
        uncommitted.incrementAndGet();
        queue.add(new Write(job, step, f));
        return f;
    }

    /** Writes queued so far and not yet committed. */
    public int backlog() {
        return queue.size();
    }

    private void run() {
        List<Write> batch = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Write first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                Map<Long, JobRecord> newest = new LinkedHashMap<>();
                List<StepChange> steps = new ArrayList<>();
                int writes = 0; // barriers left out
                for (Write w : batch) {
                    if (w.job != null) {
                        newest.put(w.job.id(), w.job);
                        writes++;
                    } else if (w.step != null) {
                        steps.add(w.step);
                        writes++;
                    }
                }
                commitWithRetry(List.copyOf(newest.values()), steps);
                if (writes > 0) {
                    batchObserver.accept(writes);
                }
                uncommitted.addAndGet(-batch.size());
                batch.forEach(w -> w.done.complete(null));
                batch.clear();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                queue.drainTo(batch);
                batch.forEach(w -> w.done.completeExceptionally(new DatabaseUnavailable("the controller stopped before it committed")));
                return;
            } catch (FencedException e) {
                running = false;
                queue.drainTo(batch);
                batch.forEach(w -> w.done.completeExceptionally(e));
                onFenced.accept(e);
                return;
            }
        }
    }

    private void commitWithRetry(List<JobRecord> jobs, List<StepChange> steps) throws InterruptedException, FencedException {
        if (jobs.isEmpty() && steps.isEmpty()) {
            return; // barriers only: what was queued before them is committed
        }
        long pauseMs = 50;
        int failures = 0;
        while (true) {
            try {
                retry.drainPermits(); // a retryNow() from now on ends the pause after this attempt
                commitSince = System.nanoTime();
                store.write(jobs, steps);
                commitSince = 0;
                if (failures > 0) {
                    LOG.info("committed {} job version(s) and {} step change(s) after {} failed attempt(s)", jobs.size(),
                            steps.size(), failures);
                }
                availability.up();
                return;
            } catch (FencedException e) {
                throw e;
            } catch (StoreException e) {
                commitSince = 0;
                availability.down("commit failed: " + e.getMessage());
                if (failures++ == 0 || pauseMs == 5000 && failures % 12 == 0) { // then about once a minute
                    LOG.error("{}; retrying (attempt {}) with growing pauses, up to 5 s", e.getMessage(), failures);
                }
                if (retry.tryAcquire(pauseMs, TimeUnit.MILLISECONDS)) {
                    pauseMs = 50; // told the database is back
                } else {
                    pauseMs = Math.min(pauseMs * 2, 5000);
                }
            }
        }
    }

    /**
     * Commits what is queued, then stops: waits up to 30 s, or 3 s while the database is down, then gives up on what is
     * left (logged; none of it was acknowledged) so that a stopping controller does not hang on a lost database.
     */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(availability.isUp() ? 30_000 : 3_000);
            if (thread.isAlive()) {
                LOG.warn("stopping with {} write(s) not committed ({}): none was acknowledged", uncommitted.get(),
                        availability.outage().map(Throwable::getMessage).orElse("the database is slow"));
                thread.interrupt();
                thread.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
