package dev.gantry.common.config;

import dev.gantry.common.units.SlurmMemory;
import dev.gantry.common.units.SlurmTime;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/** Value parsers for config keys; each throws IllegalArgumentException saying what is wrong. */
final class Values {

    private Values() {}

    static Function<String, Integer> intRange(int min, int max) {
        return raw -> {
            int v;
            try {
                v = Integer.parseInt(raw.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + raw + "' is not a whole number");
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(v + " is out of range " + min + ".." + max);
            }
            return v;
        };
    }

    /** A whole number, or UNLIMITED/INFINITE for -1. */
    static Function<String, Integer> intOrUnlimited(int min, int max) {
        Function<String, Integer> plain = intRange(min, max);
        return raw -> isUnlimited(raw) ? -1 : plain.apply(raw);
    }

    static Function<String, Long> seconds(long min, long max) {
        return raw -> {
            long v;
            try {
                v = Long.parseLong(raw.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + raw + "' is not a whole number of seconds");
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(v + " seconds is out of range " + min + ".." + max);
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

    /** PreemptMode: OFF, CANCEL, REQUEUE, SUSPEND, optionally with GANG, comma-separated. */
    static String preemptMode(String raw) {
        Set<String> seen = new TreeSet<>();
        for (String token : list(raw)) {
            String t = token.toUpperCase(Locale.ROOT);
            if (!Set.of("OFF", "CANCEL", "REQUEUE", "SUSPEND", "GANG", "WITHIN").contains(t)) {
                throw new IllegalArgumentException("'" + token + "' is not one of OFF, CANCEL, REQUEUE, SUSPEND, GANG");
            }
            if (!seen.add(t)) {
                throw new IllegalArgumentException("'" + token + "' is given twice");
            }
        }
        return raw.toUpperCase(Locale.ROOT);
    }

    /** OverSubscribe: NO, EXCLUSIVE, YES[:n], FORCE[:n] with 1 <= n <= 32767 as Slurm documents. */
    static String overSubscribe(String raw) {
        String v = raw.trim().toUpperCase(Locale.ROOT);
        String word = v.contains(":") ? v.substring(0, v.indexOf(':')) : v;
        if (!Set.of("NO", "EXCLUSIVE", "YES", "FORCE").contains(word)) {
            throw new IllegalArgumentException("'" + raw + "' is not one of NO, EXCLUSIVE, YES[:n], FORCE[:n]");
        }
        if (v.contains(":")) {
            if (!word.equals("YES") && !word.equals("FORCE")) {
                throw new IllegalArgumentException("'" + raw + "': only YES and FORCE take a job count");
            }
            intRange(1, 32767).apply(v.substring(v.indexOf(':') + 1));
        }
        return v;
    }

    static boolean isUnlimited(String raw) {
        String v = raw.trim();
        return v.equalsIgnoreCase("UNLIMITED") || v.equalsIgnoreCase("INFINITE");
    }
}
