package dev.gantry.select.placement;

/** Which blocked jobs of a backfill pass hold their reservation (https://slurm.schedmd.com/sched_config.html). */
public enum ReservationMode {
    /** Every blocked job that may reserve holds its reservation: no later job delays any of them. */
    CONSERVATIVE,
    /**
     * Only the first blocked job of each partition that gets a start (and may reserve) holds one; the others get an
     * estimated start and hold nothing, so later jobs may delay them but never the held one.
     */
    EASY
}
