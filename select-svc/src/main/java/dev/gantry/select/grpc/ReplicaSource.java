package dev.gantry.select.grpc;

import dev.gantry.select.model.ReplicaView;
import java.util.Optional;

/** Where the Select service gets the replica it plans on. */
@FunctionalInterface
public interface ReplicaSource {

    /**
     * A fresh immutable copy of the current replica, or empty while there is none that is current (before the first
     * snapshot, and while the event stream is down). Thread-safe; cheap enough to call once per RPC.
     */
    Optional<ReplicaView> currentView();
}
