package dev.gantry.cli.getopt;

import java.util.List;

/**
 * One option a command accepts, as a getopt_long table entry.
 *
 * @param key how the command refers to it (usually the first long name)
 * @param shortName the single-letter form, or 0 when there is none
 * @param longNames the long forms, without "--"
 * @param argument whether it takes an argument
 */
public record OptionSpec(String key, char shortName, List<String> longNames, Argument argument) {

    /** getopt's has_arg. */
    public enum Argument {
        /** A flag: "-h", "--noheader". */
        NONE,
        /** "-N 2", "-N2", "--nodes 2", "--nodes=2". */
        REQUIRED,
        /** Only attached: "-j123", "--jobs=123"; "-j" and "--jobs" alone have no value. */
        OPTIONAL
    }

    public OptionSpec {
        longNames = List.copyOf(longNames);
    }

    /** A flag with a short and long name. */
    public static OptionSpec flag(char shortName, String... longNames) {
        return new OptionSpec(longNames.length > 0 ? longNames[0] : String.valueOf(shortName), shortName,
                List.of(longNames), Argument.NONE);
    }

    /** An option with a required argument. */
    public static OptionSpec withValue(char shortName, String... longNames) {
        return new OptionSpec(longNames.length > 0 ? longNames[0] : String.valueOf(shortName), shortName,
                List.of(longNames), Argument.REQUIRED);
    }

    /** An option whose argument may be attached. */
    public static OptionSpec withOptionalValue(char shortName, String... longNames) {
        return new OptionSpec(longNames.length > 0 ? longNames[0] : String.valueOf(shortName), shortName,
                List.of(longNames), Argument.OPTIONAL);
    }
}
