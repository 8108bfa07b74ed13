package dev.gantry.cli.text;

import dev.gantry.common.units.SlurmTime;
import java.time.Instant;
import java.time.ZoneId;

/** Timestamps and durations in the shapes Slurm's commands print them. Pure functions. */
public final class SlurmClock {

    private SlurmClock() {}

    /** squeue's {@code _print_time}: ISO local time, "N/A" when unset. */
    public static String squeueTime(Instant t, ZoneId zone) {
        return SlurmTime.formatTimestamp(t, zone);
    }

    /** scontrol's {@code slurm_make_time_str}: ISO local time, "Unknown" when unset. */
    public static String scontrolTime(Instant t, ZoneId zone) {
        return t == null ? "Unknown" : SlurmTime.formatTimestamp(t, zone);
    }

    /**
     * squeue's {@code _print_secs}: M:SS, H:MM:SS, D-HH:MM:SS; "INVALID" for negative values or more than
     * a year, as Slurm prints them.
     */
    public static String squeueDuration(long seconds) {
        if (seconds < 0 || seconds > 365L * 24 * 3600) {
            return "INVALID";
        }
        return SlurmTime.formatElapsed(seconds);
    }
}
