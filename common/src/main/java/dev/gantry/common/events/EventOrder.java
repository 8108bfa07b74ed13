package dev.gantry.common.events;

/**
 * A replica's place in scheduler-svc's event stream, and the order it takes changes in: after the snapshot it was
 * built from, only events of the same epoch, each with a revision after the last one applied. gang-svc's and
 * select-svc's replicas apply every change through it, so a gap or a mix-up of epochs fails loudly (the follower then
 * resyncs from a snapshot). Pure: epochs and revisions only, no stream messages. Not thread-safe: one thread applies
 * events, as for the replica that holds it.
 */
public final class EventOrder {

    private final String epoch;
    private long revision;

    /** At the snapshot of ({@code epoch}, {@code revision}). */
    public EventOrder(String epoch, long revision) {
        this.epoch = epoch;
        this.revision = revision;
    }

    /**
     * Runs {@code change}, carried by the event of ({@code eventEpoch}, {@code eventRevision}), if that event may be
     * applied now; the revision is then the event's.
     *
     * @throws IllegalArgumentException for an event of another epoch, or a revision not after {@link #revision()}; then
     *                                  {@code change} is not run and the revision is unchanged
     */
    public void apply(String eventEpoch, long eventRevision, Runnable change) {
        if (!epoch.equals(eventEpoch)) {
            throw new IllegalArgumentException("event of epoch " + eventEpoch + " applied to a replica of epoch " + epoch);
        }
        if (eventRevision <= revision) {
            throw new IllegalArgumentException("event revision " + eventRevision + " is not after replica revision " + revision);
        }
        change.run();
        revision = eventRevision;
    }

    public String epoch() {
        return epoch;
    }

    /** The revision of the snapshot, or of the last event applied since. */
    public long revision() {
        return revision;
    }
}
