package dev.gantry.common.events;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.ClusterSnapshot;
import io.grpc.Status;

/**
 * Receives scheduler-svc's event stream from a {@link ClusterEventFollower}.
 *
 * <p>Thread-safety: the follower calls these methods one at a time, never concurrently, in stream order, from
 * gRPC's threads (not always the same thread; each call happens-after the previous one). They should return
 * quickly: the stream does not advance while one runs.
 */
public interface ClusterEventListener {

    /**
     * The whole cluster state at {@code revision} of {@code epoch}: drop any replica and rebuild from it.
     * Called first on every stream, and again whenever the stream carries a new snapshot (for example a new epoch).
     */
    void onSnapshot(String epoch, long revision, ClusterSnapshot snapshot);

    /**
     * One change, with the revision right after the last snapshot or change delivered, in the same epoch.
     * Its event case is never {@code SNAPSHOT}; it may be {@code EVENT_NOT_SET} for a kind this build does not know.
     *
     * <p>Throwing tells the follower the replica may be inconsistent: it drops the stream and resyncs from a
     * fresh snapshot.
     */
    void onEvent(ClusterEvent event);

    /**
     * The stream ended or failed (or was dropped by the follower, e.g. on a revision gap); until the next
     * {@link #onSnapshot} the replica may be stale. The default does nothing.
     */
    default void onStreamClosed(Status status) {}
}
