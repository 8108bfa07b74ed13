package dev.gantry.select.placement;

import java.time.Instant;

/**
 * The SchedulerParameters of one backfill pass (https://slurm.schedmd.com/slurm.conf.html#OPT_SchedulerParameters).
 *
 * @param now               the pass's present: starts, reservations and time limits count from it
 * @param mode              which blocked jobs hold their reservation
 * @param windowSeconds     bf_window: no start later than now + this is promised; 0 = no limit
 * @param resolutionSeconds bf_resolution: planned ends on the profile are rounded up to a multiple of this (running
 *                          jobs' ends and starts are exact, see {@link PlanOptions}); 0 or 1 = seconds
 * @param maxJobTest        bf_max_job_test: only the first this many jobs are tested; 0 = all
 */
public record BackfillOptions(Instant now, ReservationMode mode, long windowSeconds, long resolutionSeconds, int maxJobTest) {

    public BackfillOptions {
        if (windowSeconds < 0 || resolutionSeconds < 0 || maxJobTest < 0) {
            throw new IllegalArgumentException("window, resolution and max_job_test must not be negative, got "
                    + windowSeconds + ", " + resolutionSeconds + ", " + maxJobTest);
        }
    }

    /** Every job tested, no window, times to the second. */
    public static BackfillOptions of(Instant now, ReservationMode mode) {
        return new BackfillOptions(now, mode, 0, 0, 0);
    }
}
