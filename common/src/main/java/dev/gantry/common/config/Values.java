package dev.gantry.common.config;

import dev.gantry.common.units.SlurmMemory;
import dev.gantry.common.units.SlurmTime;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** Value parsers for config keys; each throws IllegalArgumentException saying what is wrong. */
final class Values {

    private Values() {}

    static Function<String, Integer> intRange(int min, int max) {
        Function<String, Long> number = wholeNumber(min, max, "");
        return raw -> number.apply(raw).intValue();
    }

    /** A whole number, or UNLIMITED/INFINITE for -1. */
    static Function<String, Integer> intOrUnlimited(int min, int max) {
        Function<String, Integer> plain = intRange(min, max);
        return raw -> isUnlimited(raw) ? -1 : plain.apply(raw);
    }

    static Function<String, Long> seconds(long min, long max) {
        return wholeNumber(min, max, "seconds");
    }

    /** A whole number from min to max; {@code unit} (may be empty) names what it counts in messages. */
    private static Function<String, Long> wholeNumber(long min, long max, String unit) {
        return raw -> {
            long v;
            try {
                v = Long.parseLong(raw.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + raw + "' is not a whole number"
                        + (unit.isEmpty() ? "" : " of " + unit));
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(v + (unit.isEmpty() ? "" : " " + unit) + " is out of range " + min + ".."
                        + max);
            }
            return v;
        };
    }

    /** A Slurm time string (minutes, [days-]hours:minutes:seconds, UNLIMITED) as seconds, -1 for UNLIMITED. */
    static Long timeLimit(String raw) {
        return SlurmTime.parseLimitSeconds(raw);
    }

    /** Megabytes with optional K/M/G/T suffix; UNLIMITED or 0 give 0 (no limit). */
    static Long memoryMb(String raw) {
        if (isUnlimited(raw)) {
            return 0L;
        }
        return SlurmMemory.parseMb(raw);
    }

    static Boolean yesNo(String raw) {
        return switch (raw.trim().toUpperCase(Locale.ROOT)) {
            case "YES", "TRUE", "1" -> true;
            case "NO", "FALSE", "0" -> false;
            default -> throw new IllegalArgumentException("'" + raw + "' is not YES or NO");
        };
    }

    /** One of the given words, matched case-insensitively; returns the canonical spelling. */
    static Function<String, String> oneOf(String... words) {
        return raw -> {
            for (String w : words) {
                if (w.equalsIgnoreCase(raw.trim())) {
                    return w;
                }
            }
            throw new IllegalArgumentException("'" + raw + "' is not one of " + String.join(", ", words));
        };
    }

    static String string(String raw) {
        return raw;
    }

    /** A comma-separated list; empty items are refused. */
    static List<String> list(String raw) {
        if (raw.isBlank()) {
            return List.of();
        }
        List<String> items = Arrays.stream(raw.split(",", -1)).map(String::trim).toList();
        if (items.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("'" + raw + "' has an empty list item");
        }
        return items;
    }

    /** A partition's or QOS's own PreemptMode ({@link PreemptMode#parse}); null when blank (the cluster's applies). */
    static PreemptMode preemptMode(String raw) {
        return raw.isBlank() ? null : PreemptMode.parse(raw);
    }

    static boolean isUnlimited(String raw) {
        String v = raw.trim();
        return v.equalsIgnoreCase("UNLIMITED") || v.equalsIgnoreCase("INFINITE");
    }
}
