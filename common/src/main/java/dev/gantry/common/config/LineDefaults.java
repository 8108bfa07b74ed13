package dev.gantry.common.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code NodeName=DEFAULT} or {@code PartitionName=DEFAULT} lines set for the lines of their kind after them
 * (https://slurm.schedmd.com/slurm.conf.html): a later DEFAULT line adds to and overrides an earlier one, and a line's
 * own options override the defaults. Options are keyed by lower-case name. Not thread-safe; one per parse and kind.
 */
final class LineDefaults {

    private final String nameKey;
    private Map<String, String> defaults = Map.of();

    /** @param nameKey the lower-case key that names the line's node or partition ({@code nodename}, {@code partitionname}) */
    LineDefaults(String nameKey) {
        this.nameKey = nameKey;
    }

    /** Whether {@code own}, a line's options, is a DEFAULT line; if it is, its options become defaults. */
    boolean absorb(Map<String, String> own) {
        if (!own.get(nameKey).equalsIgnoreCase("DEFAULT")) {
            return false;
        }
        Map<String, String> d = new LinkedHashMap<>(defaults);
        own.forEach((key, value) -> {
            if (!key.equals(nameKey)) {
                d.put(key, value);
            }
        });
        defaults = d;
        return true;
    }

    /** A line's options over the defaults so far. */
    Map<String, String> over(Map<String, String> own) {
        Map<String, String> m = new LinkedHashMap<>(defaults);
        m.putAll(own);
        return m;
    }
}
