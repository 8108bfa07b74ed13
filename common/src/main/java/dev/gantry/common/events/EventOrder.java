package dev.gantry.common.events;

/**
 * The order a replica of scheduler-svc's state takes changes in: after the snapshot it was built from, only events
 * of the same epoch, each with a revision after the last one applied. gang-svc's and select-svc's replicas check it
 * before applying a change, so a gap or a mix-up of epochs fails loudly (the follower then resyncs from a snapshot).
 * Pure: epochs and revisions only, no stream messages.
 */
public final class EventOrder {
    private EventOrder() {}

    /**
     * Checks that an event of ({@code eventEpoch}, {@code eventRevision}) may be applied to a replica at
     * ({@code epoch}, {@code revision}).
     *
     * @throws IllegalArgumentException for an event of another epoch, or a revision not after {@code revision}
     */
    public static void requireNext(String epoch, long revision, String eventEpoch, long eventRevision) {
        if (!epoch.equals(eventEpoch)) {
            throw new IllegalArgumentException("event of epoch " + eventEpoch + " applied to a replica of epoch " + epoch);
        }
        if (eventRevision <= revision) {
            throw new IllegalArgumentException("event revision " + eventRevision + " is not after replica revision " + revision);
        }
    }
}
