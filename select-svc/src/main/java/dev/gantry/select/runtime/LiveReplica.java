package dev.gantry.select.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.common.events.ClusterEventListener;
import dev.gantry.select.grpc.ReplicaSource;
import dev.gantry.select.model.Replica;
import dev.gantry.select.model.ReplicaView;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;

/**
 * The replica the event stream keeps current, shared between the stream's thread and Plan calls.
 *
 * <p>Thread-safety: the stream thread applies events under the write lock; a Plan takes the read lock only to copy a
 * {@link ReplicaView} (O(nodes)) and plans on the copy outside it. The replica is served only while the stream is
 * live: after the stream is lost it may be stale (scheduler-svc may even have restarted under a new epoch), so
 * {@link #currentView()} is empty until the next snapshot.
 *
 * <p>{@link #awaitView} waits on a monitor of its own, which every change notifies after it is published; a waiter
 * checks the published epoch and revision while holding the monitor, so no change can slip between its check and its
 * wait.
 */
@Singleton
public final class LiveReplica implements ClusterEventListener, ReplicaSource {

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LiveReplica.class);

    private final Counter eventsApplied;
    private final Counter eventsCarried;
    // Guarded by lock.
    private Replica replica;
    private boolean live;
    // Read by the gauges without the lock.
    private volatile long revision;
    private volatile boolean ready;
    private volatile String epoch = "";
    /** Notified after every change; {@link #awaitView} waits on it. */
    private final Object advanced = new Object();

    public LiveReplica(MeterRegistry registry) {
        this.eventsApplied = Counter.builder("gantry.select.events.applied")
                .description("Cluster events applied to the replica (snapshots not included)")
                .register(registry);
        this.eventsCarried = Counter.builder("gantry.select.events.carried")
                .description("Cluster changes applied to the replica from a request's changes, ahead of the event stream")
                .register(registry);
        Gauge.builder("gantry.select.replica.revision", this, r -> r.revision)
                .description("Revision of the last event applied to the replica").register(registry);
        Gauge.builder("gantry.select.replica.ready", this, r -> r.ready ? 1 : 0)
                .description("1 while the replica is current (snapshot received, stream live), else 0").register(registry);
    }

    @Override
    public void onSnapshot(String epoch, long revision, ClusterSnapshot snapshot) {
        Replica rebuilt = ReplicaInputs.replica(epoch, revision, snapshot);
        change(() -> {
            replica = rebuilt;
            live = true;
            return true;
        });
    }

    /**
     * Applies one change from the stream; skips it when a request already brought it ({@link #catchUp}); throws (and
     * the follower resyncs) if it does not follow the replica's revision.
     */
    @Override
    public void onEvent(ClusterEvent event) {
        boolean applied = change(() -> {
            if (replica == null) {
                throw new IllegalStateException("event at revision " + event.getRevision() + " before any snapshot");
            }
            if (event.getEpoch().equals(replica.epoch()) && event.getRevision() <= replica.revision()) {
                return false;
            }
            ReplicaInputs.apply(replica, event);
            return true;
        });
        if (applied) {
            eventsApplied.increment();
        }
    }

    @Override
    public void catchUp(String wantedEpoch, List<ClusterEvent> changes) {
        int applied = 0;
        lock.writeLock().lock();
        try {
            if (!live || replica == null || !replica.epoch().equals(wantedEpoch)) {
                return;
            }
            for (ClusterEvent event : changes) {
                if (!event.getEpoch().equals(wantedEpoch) || event.getRevision() > replica.revision() + 1) {
                    break; // another epoch, or a gap: the stream brings the rest
                }
                if (event.getRevision() == replica.revision() + 1) {
                    ReplicaInputs.apply(replica, event);
                    applied++;
                }
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("a request's change does not apply to the replica ({}); waiting for the event stream", e.getMessage());
        } finally {
            if (applied > 0) {
                publish();
            }
            lock.writeLock().unlock();
        }
        if (applied > 0) {
            notifyWaiters();
            eventsCarried.increment(applied);
        }
    }

    @Override
    public void onStreamClosed(Status status) {
        change(() -> {
            live = false;
            return true;
        });
    }

    /**
     * Runs {@code change} under the write lock; when it changed the replica (answers true), publishes the result and
     * wakes the waiters. A change that throws publishes nothing.
     *
     * @return what {@code change} answered
     */
    private boolean change(BooleanSupplier change) {
        boolean changed;
        lock.writeLock().lock();
        try {
            changed = change.getAsBoolean();
            if (changed) {
                publish();
            }
        } finally {
            lock.writeLock().unlock();
        }
        if (changed) {
            notifyWaiters();
        }
        return changed;
    }

    @Override
    public Optional<ReplicaView> currentView() {
        lock.readLock().lock();
        try {
            return live && replica != null ? Optional.of(replica.view()) : Optional.empty();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Optional<ReplicaView> awaitView(String wantedEpoch, long minRevision, Duration patience) throws InterruptedException {
        if (!caughtUp(wantedEpoch, minRevision)) {
            long deadline = System.nanoTime() + patience.toNanos();
            synchronized (advanced) {
                while (!caughtUp(wantedEpoch, minRevision)) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    advanced.wait(Math.max(1, left / 1_000_000));
                }
            }
        }
        return currentView();
    }

    @Override
    public boolean caughtUp(String wantedEpoch, long minRevision) {
        return ready && (wantedEpoch.isEmpty() || wantedEpoch.equals(epoch)) && revision >= minRevision;
    }

    /** Whether Plan calls are being answered (a current replica exists). */
    public boolean isReady() {
        return ready;
    }

    /** Called under the write lock after each change; wakes the waiters once the lock is released (see callers). */
    private void publish() {
        epoch = replica == null ? "" : replica.epoch();
        revision = replica == null ? 0 : replica.revision();
        ready = live && replica != null;
    }

    private void notifyWaiters() {
        synchronized (advanced) {
            advanced.notifyAll();
        }
    }
}
