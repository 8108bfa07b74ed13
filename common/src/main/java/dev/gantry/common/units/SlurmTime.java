package dev.gantry.common.units;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Slurm's time-limit strings (sbatch --time, MaxTime, DefaultTime): "minutes", "minutes:seconds",
 * "hours:minutes:seconds", "days-hours", "days-hours:minutes", "days-hours:minutes:seconds", and
 * UNLIMITED/INFINITE. See https://slurm.schedmd.com/sbatch.html#OPT_time. Pure and thread-safe.
 */
public final class SlurmTime {

    /** Seconds value that stands for UNLIMITED. */
    public static final long UNLIMITED = -1;

    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private SlurmTime() {}

    /**
     * Parses a time limit into seconds ({@link #UNLIMITED} for UNLIMITED/INFINITE).
     *
     * @throws IllegalArgumentException with Slurm's wording for a malformed string
     */
    public static long parseLimitSeconds(String text) {
        String s = text == null ? "" : text.trim();
        if (s.equalsIgnoreCase("UNLIMITED") || s.equalsIgnoreCase("INFINITE") || s.equals("-1")) {
            return UNLIMITED;
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("Invalid time specification (empty)");
        }
        long days = 0;
        String rest = s;
        int dash = s.indexOf('-');
        boolean hasDays = dash >= 0;
        if (hasDays) {
            days = number(s.substring(0, dash), s);
            rest = s.substring(dash + 1);
        }
        String[] parts = rest.split(":", -1);
        for (String p : parts) {
            number(p, s);
        }
        long seconds;
        if (hasDays) {
            // days-hours[:minutes[:seconds]]
            if (parts.length > 3) {
                throw invalid(s);
            }
            long h = number(parts[0], s);
            long m = parts.length > 1 ? number(parts[1], s) : 0;
            long sec = parts.length > 2 ? number(parts[2], s) : 0;
            seconds = ((days * 24 + h) * 60 + m) * 60 + sec;
        } else {
            seconds = switch (parts.length) {
                case 1 -> number(parts[0], s) * 60;
                case 2 -> number(parts[0], s) * 60 + number(parts[1], s);
                case 3 -> (number(parts[0], s) * 60 + number(parts[1], s)) * 60 + number(parts[2], s);
                default -> throw invalid(s);
            };
        }
        return seconds;
    }

    private static long number(String part, String whole) {
        if (part.isEmpty() || part.length() > 9) {
            throw invalid(whole);
        }
        for (int i = 0; i < part.length(); i++) {
            if (part.charAt(i) < '0' || part.charAt(i) > '9') {
                throw invalid(whole);
            }
        }
        return Long.parseLong(part);
    }

    private static IllegalArgumentException invalid(String s) {
        return new IllegalArgumentException("Invalid time specification '" + s + "'");
    }

    /** Formats seconds as Slurm prints limits and elapsed times: [days-]hours:minutes:seconds, or UNLIMITED. */
    public static String formatLimit(long seconds) {
        if (seconds < 0) {
            return "UNLIMITED";
        }
        return formatElapsed(seconds);
    }

    /**
     * Elapsed time as squeue's TIME column: M:SS under an hour, H:MM:SS under a day, D-HH:MM:SS beyond.
     */
    public static String formatElapsed(long seconds) {
        long s = Math.max(0, seconds);
        long days = s / 86400;
        long h = (s / 3600) % 24;
        long m = (s / 60) % 60;
        long sec = s % 60;
        // by hand, not String.format: squeue prints this on every line of a queue of 100,000 jobs
        StringBuilder b = new StringBuilder(12);
        if (days > 0) {
            b.append(days).append('-');
            twoDigits(b, h).append(':');
        } else if (h > 0) {
            b.append(h).append(':');
        }
        if (days > 0 || h > 0) {
            twoDigits(b, m);
        } else {
            b.append(m);
        }
        b.append(':');
        return twoDigits(b, sec).toString();
    }

    private static StringBuilder twoDigits(StringBuilder b, long v) {
        return b.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    /** Limits as scontrol prints TimeLimit=: always [days-]HH:MM:SS, or UNLIMITED. */
    public static String formatLimitLong(long seconds) {
        if (seconds < 0) {
            return "UNLIMITED";
        }
        long days = seconds / 86400;
        long h = (seconds / 3600) % 24;
        long m = (seconds / 60) % 60;
        long sec = seconds % 60;
        return days > 0 ? String.format("%d-%02d:%02d:%02d", days, h, m, sec) : String.format("%02d:%02d:%02d", h, m, sec);
    }

    /** A timestamp as Slurm prints it (scontrol, squeue %S): 2026-11-22T05:31:19 in the given zone, or "N/A". */
    public static String formatTimestamp(Instant instant, ZoneId zone) {
        if (instant == null) {
            return "N/A";
        }
        return ISO_SECONDS.format(LocalDateTime.ofInstant(instant, zone));
    }

    /** A duration of whole seconds for config values such as KillWait=30. */
    public static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
