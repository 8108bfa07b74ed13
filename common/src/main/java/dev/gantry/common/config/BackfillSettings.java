package dev.gantry.common.config;

/**
 * The backfill pass's options from SchedulerParameters, as Slurm names them
 * (https://slurm.schedmd.com/slurm.conf.html#OPT_SchedulerParameters); parsed at load by {@link SchedulerParameters}.
 *
 * @param windowSeconds bf_window (minutes in the config; default 1440): how far ahead reservations are planned
 * @param resolutionSeconds bf_resolution (seconds; default 60): reservation times are rounded up to it
 * @param maxJobTest bf_max_job_test: jobs tested per pass; Gantry's default 0 tests the whole queue (Slurm: 500)
 * @param continueAfterYield bf_continue: accepted; a Gantry pass never yields the controller mid-pass, so it has
 *     nothing to continue
 * @param minPrioReserve bf_min_prio_reserve (default 0): jobs below this priority never hold a reservation
 * @param intervalSeconds bf_interval (default 30): seconds between backfill passes
 * @param easy Gantry's bf_reserve=easy: only the first blocked job of each partition holds a reservation;
 *     bf_reserve=conservative (the default, as Slurm) reserves for every blocked job
 */
public record BackfillSettings(long windowSeconds, long resolutionSeconds, int maxJobTest, boolean continueAfterYield,
        long minPrioReserve, long intervalSeconds, boolean easy) {

    public static final BackfillSettings DEFAULTS = new BackfillSettings(1440 * 60, 60, 0, false, 0, 30, false);

    /** The same settings with another bf_interval (seconds). */
    public BackfillSettings withIntervalSeconds(long seconds) {
        return new BackfillSettings(windowSeconds, resolutionSeconds, maxJobTest, continueAfterYield, minPrioReserve,
                seconds, easy);
    }
}
