package dev.gantry.common.config;

/**
 * A partition's BackfillPolicy= (Gantry, after Moab's BACKFILLPOLICY): FIRSTFIT (the default) backfills only jobs that
 * delay no reservation; PREEMPT lets a backfill job overlap a reservation, to be preempted when the reserved job's
 * start comes.
 */
public enum BackfillPolicy {
    FIRSTFIT, PREEMPT
}
