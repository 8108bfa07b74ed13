package dev.gantry.select.placement;

import java.time.Instant;

/**
 * How a Plan runs.
 *
 * @param stopAtFirstBlocked main-pass semantics: once a job cannot start in a partition, later jobs are not tried there
 * @param reserve            backfill semantics: a job that cannot start gets the earliest start and nodes given
 *                           running jobs' end times and the reservations of the jobs before it, and later jobs start
 *                           now only where they delay no reservation (conservative backfill)
 * @param now                the plan's present: reservations and time limits count from it
 * @param windowSeconds      bf_window: no reservation starts later than now + this; 0 = no limit
 * @param resolutionSeconds  bf_resolution: the ends of held reservations and of jobs started in the plan are rounded up
 *                           to a multiple of this (epoch seconds); running jobs' ends and the starts found are exact
 *                           (Slurm's StartTime is the end of the blocking job's limit, to the second); 0 or 1 = to the
 *                           second
 */
public record PlanOptions(boolean stopAtFirstBlocked, boolean reserve, Instant now, long windowSeconds,
                          long resolutionSeconds) {

    public PlanOptions {
        if (windowSeconds < 0) {
            throw new IllegalArgumentException("window must not be negative, got " + windowSeconds);
        }
        if (resolutionSeconds < 0) {
            throw new IllegalArgumentException("resolution must not be negative, got " + resolutionSeconds);
        }
    }

    public PlanOptions(boolean stopAtFirstBlocked, boolean reserve, Instant now, long windowSeconds) {
        this(stopAtFirstBlocked, reserve, now, windowSeconds, 0);
    }

    public PlanOptions(boolean stopAtFirstBlocked, boolean reserve, Instant now) {
        this(stopAtFirstBlocked, reserve, now, 0);
    }

    /** The walking skeleton's modes: no reservations; time does not matter then. */
    public static PlanOptions of(boolean stopAtFirstBlocked) {
        return new PlanOptions(stopAtFirstBlocked, false, Instant.EPOCH);
    }
}
