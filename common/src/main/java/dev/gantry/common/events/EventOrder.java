package dev.gantry.common.events;

import dev.gantry.api.v1.ClusterEvent;

/**
 * The order a replica of scheduler-svc's state takes changes in: after the snapshot it was built from, only events
 * of the same epoch, each with a revision after the last one applied. gang-svc's and select-svc's replicas check it
 * before applying an event, so a gap or a mix-up of epochs fails loudly (the follower then resyncs from a snapshot).
 */
public final class EventOrder {
    private EventOrder() {}

    /**
     * Checks that {@code event} may be applied to a replica at ({@code epoch}, {@code revision}).
     *
     * @throws IllegalArgumentException for a snapshot (it replaces a replica rather than being applied to one), an
     *                                  event of another epoch, or a revision not after {@code revision}
     */
    public static void requireNext(String epoch, long revision, ClusterEvent event) {
        if (event.hasSnapshot()) {
            throw new IllegalArgumentException("a snapshot replaces the replica; it is not applied to it");
        }
        if (!epoch.equals(event.getEpoch())) {
            throw new IllegalArgumentException("event of epoch " + event.getEpoch() + " applied to a replica of epoch " + epoch);
        }
        if (event.getRevision() <= revision) {
            throw new IllegalArgumentException("event revision " + event.getRevision() + " is not after replica revision " + revision);
        }
    }
}
