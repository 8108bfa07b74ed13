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
 * and everything after it, stops, and tells its {@code onFenced}. Thread-safe.
 */
public final class GroupCommitWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final int MAX_BATCH = 5000;

    /** A job version or a step change (exactly one of them non-null), and who waits for its commit. */
    private record Write(JobRecord job, StepChange step, CompletableFuture<Void> done) {}

    private final JobStore store;
    private final LinkedBlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final IntConsumer batchObserver;
    private final java.util.function.Consumer<FencedException> onFenced;
    private volatile boolean running = true;

    /** @param batchObserver told each committed batch's size (for metrics) */
    public GroupCommitWriter(JobStore store, IntConsumer batchObserver) {
        this(store, batchObserver, e -> LOG.error("{}", e.getMessage()));
    }

    /**
     * @param batchObserver told each committed batch's size (for metrics)
     * @param onFenced      told, on the writer's thread, when a batch was refused by the fence (the writer has stopped)
     */
    public GroupCommitWriter(JobStore store, IntConsumer batchObserver, java.util.function.Consumer<FencedException> onFenced) {
        this.store = store;
        this.batchObserver = batchObserver;
        this.onFenced = onFenced;
        this.thread = Thread.ofPlatform().name("group-commit").daemon(false).start(this::run);
    }

    /** Queues a job version; the future completes once it is committed. */
    public CompletableFuture<Void> write(JobRecord job) {
        return enqueue(job, null);
    }

    /** Queues a step change; the future completes once it is committed. */
    public CompletableFuture<Void> write(StepChange step) {
        return enqueue(null, step);
    }

    private CompletableFuture<Void> enqueue(JobRecord job, StepChange step) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (!running) {
            f.completeExceptionally(new IllegalStateException("the store is shut down"));
            return f;
        }
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
                for (Write w : batch) {
                    if (w.job != null) {
                        newest.put(w.job.id(), w.job);
                    } else {
                        steps.add(w.step);
                    }
                }
                commitWithRetry(List.copyOf(newest.values()), steps);
                batchObserver.accept(batch.size());
                batch.forEach(w -> w.done.complete(null));
                batch.clear();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                batch.forEach(w -> w.done.completeExceptionally(e));
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
        long pauseMs = 50;
        while (true) {
            try {
                store.write(jobs, steps);
                return;
            } catch (FencedException e) {
                throw e;
            } catch (StoreException e) {
                LOG.error("{}; retrying in {} ms", e.getMessage(), pauseMs);
                Thread.sleep(pauseMs);
                pauseMs = Math.min(pauseMs * 2, 5000);
            }
        }
    }

    /** Commits what is queued, then stops. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
