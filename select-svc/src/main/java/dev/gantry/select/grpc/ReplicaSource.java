package dev.gantry.select.grpc;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.select.model.ReplicaView;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Where the Select service gets the replica it plans on. */
@FunctionalInterface
public interface ReplicaSource {

    /**
     * A fresh immutable copy of the current replica, or empty while there is none that is current (before the first
     * snapshot, and while the event stream is down). Thread-safe; cheap enough to call once per RPC.
     */
    Optional<ReplicaView> currentView();

    /**
     * As {@link #currentView()}, after waiting up to {@code patience} for a current replica that follows
     * {@code epoch} (empty: any) at {@code minRevision} or later. The controller asks for the revision of its own
     * latest change, which is usually still on its way down the event stream; waiting here for the replica to apply
     * it saves the caller a FAILED_PRECONDITION and a retry. Returns whatever is current when the wait ends: the
     * caller checks it again. This default does not wait (a source that never advances).
     */
    default boolean caughtUp(String epoch, long minRevision) {
        return currentView().map(v -> (epoch.isEmpty() || epoch.equals(v.epoch())) && v.revision() >= minRevision)
                .orElse(false);
    }

    /**
     * Applies those of {@code changes} (in revision order) that follow the replica's revision in {@code epoch}, up to the
     * first that does not follow: a request's changes reach the replica ahead of the event stream, which then skips
     * them. Changes of another epoch, or that leave a gap, are not applied. This default applies nothing.
     */
    default void catchUp(String epoch, List<ClusterEvent> changes) {}

    default Optional<ReplicaView> awaitView(String epoch, long minRevision, Duration patience) throws InterruptedException {
        return currentView();
    }
}
