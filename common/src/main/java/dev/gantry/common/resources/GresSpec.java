package dev.gantry.common.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A generic resource count in Slurm's syntax (https://slurm.schedmd.com/gres.html): {@code name[:type][:count]},
 * as on a {@code Gres=} node line ({@code gpu:4}, {@code gpu:a100:4}) or in {@code --gres} ({@code gpu:2},
 * {@code gpu:a100:2}, {@code gpu} for one). The count may carry a K/M/G suffix (powers of 1024) as Slurm allows.
 * A last field made only of digits (and a suffix) is the count, so a type cannot be all digits.
 *
 * @param name lower-case resource name, e.g. {@code gpu}
 * @param type the type, e.g. {@code a100}; empty = untyped (in a request: any type)
 * @param count at least 1 in a request; a node line may say 0
 */
public record GresSpec(String name, String type, long count) {

    private static final Pattern WORD = Pattern.compile("[A-Za-z][A-Za-z0-9_\\-.]*");
    private static final Pattern COUNT = Pattern.compile("[0-9]+[KMGkmg]?");

    public GresSpec {
        if (!WORD.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a GRES name");
        }
        if (!type.isEmpty() && !WORD.matcher(type).matches()) {
            throw new IllegalArgumentException("'" + type + "' is not a GRES type");
        }
        if (count < 0) {
            throw new IllegalArgumentException("GRES count must not be negative, got " + count);
        }
    }

    /**
     * Parses one item ({@code gpu}, {@code gpu:2}, {@code gpu:a100:2}); a leading {@code gres/} (TRES form) is
     * accepted. Node-line extras after the count, such as {@code (S:0-1)} socket bindings, are refused.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static GresSpec parse(String raw) {
        String s = raw.trim();
        if (s.regionMatches(true, 0, "gres/", 0, 5)) {
            s = s.substring(5);
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty GRES specification");
        }
        String[] parts = s.split(":", -1);
        if (parts.length > 3) {
            throw new IllegalArgumentException("'" + raw + "' is not name[:type][:count]");
        }
        String name = parts[0].toLowerCase(Locale.ROOT);
        String type = "";
        long count = 1;
        String last = parts[parts.length - 1];
        if (parts.length == 3) {
            type = parts[1];
            count = count(last, raw);
        } else if (parts.length == 2) {
            if (COUNT.matcher(last).matches()) {
                count = count(last, raw);
            } else {
                type = last;
            }
        }
        if (!WORD.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + raw + "': '" + parts[0] + "' is not a GRES name");
        }
        if (!type.isEmpty() && !WORD.matcher(type).matches()) {
            throw new IllegalArgumentException("'" + raw + "': '" + type + "' is not a GRES type");
        }
        return new GresSpec(name, type, count);
    }

    /** Parses a comma-separated list; an empty string is an empty list. */
    public static List<GresSpec> parseList(String raw) {
        List<GresSpec> out = new ArrayList<>();
        if (raw.isBlank()) {
            return out;
        }
        for (String item : raw.split(",", -1)) {
            out.add(parse(item));
        }
        return out;
    }

    private static long count(String raw, String whole) {
        if (!COUNT.matcher(raw).matches()) {
            throw new IllegalArgumentException("'" + whole + "': '" + raw + "' is not a count");
        }
        char unit = Character.toUpperCase(raw.charAt(raw.length() - 1));
        long multiplier = switch (unit) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 1;
        };
        String digits = multiplier == 1 ? raw : raw.substring(0, raw.length() - 1);
        try {
            return Math.multiplyExact(Long.parseLong(digits), multiplier);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + whole + "': count " + raw + " is too large");
        }
    }

    /** Whether a node's configured {@code offered} resource can serve this request (same name; any type if untyped). */
    public boolean servedBy(GresSpec offered) {
        return name.equals(offered.name) && (type.isEmpty() || type.equals(offered.type));
    }

    /** How many of this request's resource {@code offered} provide in total. */
    public long availableIn(List<GresSpec> offered) {
        return offered.stream().filter(this::servedBy).mapToLong(GresSpec::count).sum();
    }

    /** Slurm's text: {@code gpu:a100:2}, {@code gpu:2}. */
    @Override
    public String toString() {
        return type.isEmpty() ? name + ":" + count : name + ":" + type + ":" + count;
    }
}
