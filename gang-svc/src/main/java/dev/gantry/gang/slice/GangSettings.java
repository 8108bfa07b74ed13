package dev.gantry.gang.slice;

import java.time.Duration;
import java.util.Locale;

/**
 * The cluster's gang scheduling settings (slurm.conf PreemptMode and SchedulerTimeSlice).
 *
 * @param clusterGang the cluster PreemptMode contains GANG: every partition is time-sliced
 * @param timeSlice   SchedulerTimeSlice, at least one second (Slurm's default is 30 s)
 */
public record GangSettings(boolean clusterGang, Duration timeSlice) {

    public static final Duration DEFAULT_TIME_SLICE = Duration.ofSeconds(30);
    public static final Duration MIN_TIME_SLICE = Duration.ofSeconds(1);

    /** Gang scheduling off, Slurm's default slice. */
    public static final GangSettings OFF = new GangSettings(false, DEFAULT_TIME_SLICE);

    public GangSettings {
        if (timeSlice.compareTo(MIN_TIME_SLICE) < 0) {
            throw new IllegalArgumentException("SchedulerTimeSlice " + timeSlice + " is below 1 s");
        }
    }

    /** Settings from the config's PreemptMode (e.g. "SUSPEND,GANG") and SchedulerTimeSlice in seconds. */
    public static GangSettings of(String clusterPreemptMode, long timeSliceSeconds) {
        return new GangSettings(hasGang(clusterPreemptMode), Duration.ofSeconds(timeSliceSeconds));
    }

    /**
     * Whether a partition is time-sliced: the cluster PreemptMode has GANG (Slurm requires it there), or the
     * partition's own PreemptMode does (empty = the cluster's).
     */
    public boolean gangFor(String partitionPreemptMode) {
        return clusterGang || hasGang(partitionPreemptMode);
    }

    /** Whether a PreemptMode list ("SUSPEND,GANG", "gang", …) names GANG. */
    public static boolean hasGang(String preemptMode) {
        for (String mode : preemptMode.split(",")) {
            if (mode.trim().toUpperCase(Locale.ROOT).equals("GANG")) {
                return true;
            }
        }
        return false;
    }
}
