package dev.gantry.cli;

import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * For picocli commands: command-line mistakes reported as Slurm's commands report them (glibc getopt_long's messages, then
 * {@code Try "CMD --help" for more information}), exit status 1.
 */
public final class UsageErrors {

    private UsageErrors() {}

    /** Prints the report for {@code e} to {@code err}; returns the exit status. */
    public static int report(String command, ParameterException e, String[] args, PrintStream err) {
        err.println(describe(command, e, args));
        err.println("Try \"" + command + " --help\" for more information");
        return 1;
    }

    /** getopt's line for the mistake. */
    static String describe(String command, ParameterException e, String[] args) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            return unmatched(command, u.getUnmatched().get(0));
        }
        if (e instanceof MissingParameterException m) {
            for (ArgSpec spec : m.getMissing()) {
                if (spec instanceof OptionSpec option) {
                    return missingArgument(command, option, args);
                }
            }
        }
        return command + ": error: " + e.getMessage();
    }

    /** "unrecognized option '--foo'", "invalid option -- 'Z'", or, for a stray word, "Unrecognized option: foo". */
    static String unmatched(String command, String arg) {
        if (arg.startsWith("--") && arg.length() > 2) {
            return command + ": unrecognized option '" + arg + "'";
        }
        if (arg.startsWith("-") && arg.length() > 1) {
            return command + ": invalid option -- '" + arg.charAt(1) + "'";
        }
        return command + ": error: Unrecognized option: " + arg;
    }

    private static String missingArgument(String command, OptionSpec option, String[] args) {
        String typed = null;
        for (String a : List.of(args)) {
            for (String name : option.names()) {
                if (a.equals(name)) {
                    typed = name;
                }
            }
        }
        if (typed == null) {
            typed = option.longestName();
        }
        if (typed.startsWith("--")) {
            return command + ": option '" + typed + "' requires an argument";
        }
        return command + ": option requires an argument -- '" + typed.substring(1) + "'";
    }
}
