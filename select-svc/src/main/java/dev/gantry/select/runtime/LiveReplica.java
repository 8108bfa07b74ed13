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
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The replica the event stream keeps current, shared between the stream's thread and Plan calls.
 *
 * <p>Thread-safety: the stream thread applies events under the write lock; a Plan takes the read lock only to copy a
 * {@link ReplicaView} (O(nodes)) and plans on the copy outside it. The replica is served only while the stream is
 * live: after the stream is lost it may be stale (scheduler-svc may even have restarted under a new epoch), so
 * {@link #currentView()} is empty until the next snapshot.
 */
@Singleton
public final class LiveReplica implements ClusterEventListener, ReplicaSource {

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Counter eventsApplied;
    // Guarded by lock.
    private Replica replica;
    private boolean live;
    // Read by the gauges without the lock.
    private volatile long revision;
    private volatile boolean ready;

    public LiveReplica(MeterRegistry registry) {
        this.eventsApplied = Counter.builder("gantry.select.events.applied")
                .description("Cluster events applied to the replica (snapshots not included)")
                .register(registry);
        Gauge.builder("gantry.select.replica.revision", this, r -> r.revision)
                .description("Revision of the last event applied to the replica").register(registry);
        Gauge.builder("gantry.select.replica.ready", this, r -> r.ready ? 1 : 0)
                .description("1 while the replica is current (snapshot received, stream live), else 0").register(registry);
    }

    @Override
    public void onSnapshot(String epoch, long revision, ClusterSnapshot snapshot) {
        Replica rebuilt = Replica.fromSnapshot(epoch, revision, snapshot);
        lock.writeLock().lock();
        try {
            replica = rebuilt;
            live = true;
            publish();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Applies one change; throws (and the follower resyncs) if it does not follow the replica's revision. */
    @Override
    public void onEvent(ClusterEvent event) {
        lock.writeLock().lock();
        try {
            if (replica == null) {
                throw new IllegalStateException("event at revision " + event.getRevision() + " before any snapshot");
            }
            replica.apply(event);
            publish();
        } finally {
            lock.writeLock().unlock();
        }
        eventsApplied.increment();
    }

    @Override
    public void onStreamClosed(Status status) {
        lock.writeLock().lock();
        try {
            live = false;
            publish();
        } finally {
            lock.writeLock().unlock();
        }
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

    /** Whether Plan calls are being answered (a current replica exists). */
    public boolean isReady() {
        return ready;
    }

    private void publish() {
        ready = live && replica != null;
        revision = replica == null ? 0 : replica.revision();
    }
}
