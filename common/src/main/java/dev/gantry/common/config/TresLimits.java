package dev.gantry.common.config;

import dev.gantry.common.units.SlurmMemory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * TRES limits as sacctmgr writes them: {@code cpu=64,mem=256G,gres/gpu=8,node=4}. Names are case-insensitive and kept
 * in lower case ({@code cpu}, {@code mem}, {@code node}, {@code billing}, {@code gres/<name>}); memory is stored in
 * MiB (a bare number is MiB, K/M/G/T suffixes as --mem). A TRES not listed, or given as -1, is unlimited. Immutable.
 *
 * @param limits the limit by lower-case TRES name (memory in MiB); only limited TRES appear
 */
public record TresLimits(Map<String, Long> limits) {

    /** No limit on anything. */
    public static final TresLimits UNLIMITED = new TresLimits(Map.of());

    public TresLimits {
        limits = Collections.unmodifiableMap(new LinkedHashMap<>(limits));
    }

    /** The limit of one TRES (memory in MiB), or -1 when unlimited. */
    public long limit(String tres) {
        return limits.getOrDefault(tres, -1L);
    }

    /**
     * Parses {@code name=count[,name=count…]}; empty gives {@link #UNLIMITED}.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static TresLimits parse(String raw) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String text : Values.list(raw)) {
            TresItem item = TresItem.of(text, "count");
            long v = limit(item);
            if (out.containsKey(item.name())) {
                throw new IllegalArgumentException("'" + item.name() + "' is given twice");
            }
            if (v >= 0) {
                out.put(item.name(), v);
            }
        }
        return new TresLimits(out);
    }

    /** An item's limit: a count (memory in MiB, with a unit suffix), -1 for -1, UNLIMITED or INFINITE. */
    private static long limit(TresItem item) {
        String value = item.value();
        if (value.equals("-1") || Values.isUnlimited(value)) {
            return -1;
        }
        if (item.name().equals("mem")) {
            return SlurmMemory.parseMb(value);
        }
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + item.text() + "': '" + value + "' is not a whole number");
        }
        if (v < 0) {
            throw new IllegalArgumentException("'" + item.text() + "': a limit is >= 0, or -1 for unlimited");
        }
        return v;
    }

    /** cpu, mem, node, billing or gres/NAME in lower case; anything else is refused. */
    static String canonicalTres(String raw) {
        String n = raw.trim().toLowerCase(Locale.ROOT);
        if (n.equals("nodes")) {
            n = "node";
        }
        if (n.equals("cpu") || n.equals("mem") || n.equals("node") || n.equals("billing")
                || (n.startsWith("gres/") && n.length() > 5)) {
            return n;
        }
        throw new IllegalArgumentException("'" + raw.trim() + "' is not a TRES (cpu, mem, node, billing, gres/NAME)");
    }
}
