package dev.gantry.scheduler.cycle;

import java.util.List;
import java.util.Locale;

/**
 * The backfill pass's options from SchedulerParameters, as Slurm names them
 * (https://slurm.schedmd.com/slurm.conf.html#OPT_SchedulerParameters). Options Gantry has no use for are ignored,
 * as Slurm ignores unknown ones; a known option with a bad value is refused, naming it.
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

    /** @throws IllegalArgumentException "SchedulerParameters: bf_window=…: …" */
    public static BackfillSettings parse(List<String> parameters) {
        BackfillSettings s = DEFAULTS;
        long window = s.windowSeconds;
        long resolution = s.resolutionSeconds;
        int maxJobTest = s.maxJobTest;
        boolean cont = s.continueAfterYield;
        long minPrio = s.minPrioReserve;
        long interval = s.intervalSeconds;
        boolean easy = s.easy;
        for (String raw : parameters) {
            String item = raw.trim();
            int eq = item.indexOf('=');
            String key = (eq < 0 ? item : item.substring(0, eq)).toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : item.substring(eq + 1).trim();
            switch (key) {
                case "bf_window" -> window = number(item, value, 1, 43_200) * 60;
                case "bf_resolution" -> resolution = number(item, value, 1, 3600);
                case "bf_max_job_test" -> maxJobTest = (int) number(item, value, 0, 1_000_000);
                case "bf_continue" -> cont = true;
                case "bf_min_prio_reserve" -> minPrio = number(item, value, 0, 4_294_967_294L);
                case "bf_interval" -> interval = number(item, value, 1, 10_800);
                case "bf_reserve" -> easy = switch (value.toLowerCase(Locale.ROOT)) {
                    case "easy" -> true;
                    case "conservative" -> false;
                    default -> throw new IllegalArgumentException("SchedulerParameters: " + item
                            + ": must be easy or conservative");
                };
                default -> { } // another scheduler option: not the backfill pass's
            }
        }
        return new BackfillSettings(window, resolution, maxJobTest, cont, minPrio, interval, easy);
    }

    private static long number(String item, String value, long min, long max) {
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SchedulerParameters: " + item + ": '" + value + "' is not a whole number");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException("SchedulerParameters: " + item + ": must be between " + min + " and " + max);
        }
        return v;
    }
}
