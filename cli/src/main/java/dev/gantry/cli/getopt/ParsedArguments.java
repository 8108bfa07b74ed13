package dev.gantry.cli.getopt;

import java.util.List;

/**
 * What getopt found: the options in command-line order (repeats kept: the last one usually wins) and the
 * remaining non-option arguments in order.
 *
 * @param options option occurrences in order
 * @param operands non-option arguments
 */
public record ParsedArguments(List<Occurrence> options, List<String> operands) {

    public ParsedArguments {
        options = List.copyOf(options);
        operands = List.copyOf(operands);
    }

    /**
     * One option on the command line.
     *
     * @param key the {@link OptionSpec#key()}
     * @param value its argument, or null when it has none
     */
    public record Occurrence(String key, String value) {}

    /** Whether the option appeared at all. */
    public boolean has(String key) {
        return options.stream().anyMatch(o -> o.key().equals(key));
    }

    /** The value of the option's last occurrence, or null when absent (or given without a value). */
    public String last(String key) {
        String value = null;
        for (Occurrence o : options) {
            if (o.key().equals(key)) {
                value = o.value();
            }
        }
        return value;
    }

    /**
     * A flag as a value a later source may override (sbatch's command line over its #SBATCH lines): TRUE when it
     * appeared, null when it did not.
     */
    public Boolean flag(String key) {
        return has(key) ? Boolean.TRUE : null;
    }

    /** An option whose argument is optional: its last value, "" when given bare, null when absent. */
    public String lastOrBare(String key) {
        if (!has(key)) {
            return null;
        }
        String value = last(key);
        return value == null ? "" : value;
    }
}
