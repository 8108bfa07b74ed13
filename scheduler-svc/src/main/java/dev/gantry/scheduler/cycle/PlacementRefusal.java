package dev.gantry.scheduler.cycle;

/**
 * What a placement {@link PlacementCheck} refused says. select-svc proposes from its replica of the controller's state
 * and the controller validates against its own, both by the placement core's rules: a refusal of a proposal made at an
 * older revision than the state it was checked against is the replica being behind (retry once it has caught up); a
 * refusal of one made at that very revision means the two sides disagree on the rules — retrying would only repeat it,
 * so it is logged at WARN and counted ({@code gantry_placement_disagreements_total}) and the job waits for the next
 * pass. Pure.
 */
public enum PlacementRefusal {
    /** select-svc answered from a replica older than the state the proposal was checked against. */
    STALE,
    /** select-svc answered from the state the proposal was checked against, and it was still refused. */
    DISAGREEMENT;

    /**
     * @param answeredAt    the revision select-svc's answer was computed at
     * @param checkedAt     the controller's revision when it began acting on the answer
     */
    public static PlacementRefusal of(long answeredAt, long checkedAt) {
        return answeredAt >= checkedAt ? DISAGREEMENT : STALE;
    }
}
