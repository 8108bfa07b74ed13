package dev.gantry.scheduler.control;

import dev.gantry.common.units.SlurmDate;
import java.time.Instant;
import java.time.ZoneId;

/**
 * {@code -b/--begin}: the job is not eligible before this time (pending reason BeginTime). A time already past is
 * accepted and simply eligible (https://slurm.schedmd.com/sbatch.html#OPT_begin). Pure.
 */
public final class BeginTime {

    /** sbatch's message for a malformed --begin. */
    public static final String INVALID = "Invalid --begin specification";

    private BeginTime() {}

    /**
     * Parses a --begin value with {@link SlurmDate}.
     *
     * @throws InvalidControlException field "begin", "Invalid --begin specification", the detail being
     *         parse_time's "Invalid time specification (pos=N): text"
     */
    public static Instant parse(String text, Instant now, ZoneId zone) {
        try {
            return SlurmDate.parse(text, now, zone);
        } catch (IllegalArgumentException e) {
            throw new InvalidControlException("begin", INVALID, e.getMessage());
        }
    }

    /** True when a job with this begin time (null = none) may start at {@code now}. */
    public static boolean eligible(Instant begin, Instant now) {
        return begin == null || !now.isBefore(begin);
    }
}
