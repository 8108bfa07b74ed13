package dev.gantry.cli.command;

import dev.gantry.cli.CliCommand;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.GantryVersion;
import dev.gantry.cli.getopt.Getopt;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.getopt.UsageException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the Slurm commands share: getopt parsing with glibc's messages followed by
 * {@code Try "CMD --help" for more information} (exit 1), --help, --usage and -V/--version.
 */
abstract class SlurmCommand implements CliCommand {

    static final String HELP = "help";
    static final String USAGE = "usage";
    static final String VERSION = "version";

    protected final CliContext context;
    private final String name;

    SlurmCommand(CliContext context, String name) {
        this.context = context;
        this.name = name;
    }

    /** The command's own options. */
    abstract List<OptionSpec> options();

    /** Whether -h means --help (sbatch, scancel, scontrol) rather than --noheader (squeue, sinfo). */
    abstract boolean hIsHelp();

    /** Whether options end at the first operand (sbatch: the script and its arguments). */
    boolean stopAtOperand() {
        return false;
    }

    /** The --help text. */
    abstract String help();

    /** The --usage text. */
    abstract String usage();

    /** Runs with parsed arguments; returns the exit status. */
    abstract int execute(ParsedArguments arguments);

    @Override
    public final int run(List<String> args) {
        List<OptionSpec> specs = new ArrayList<>(options());
        specs.add(hIsHelp() ? OptionSpec.flag('h', HELP) : OptionSpec.flag('\0', HELP));
        specs.add(OptionSpec.flag('\0', USAGE));
        specs.add(OptionSpec.flag('V', VERSION));
        ParsedArguments parsed;
        try {
            parsed = new Getopt(specs, stopAtOperand()).parse(args);
        } catch (UsageException e) {
            context.err().println(name + ": " + e.getMessage());
            return tryHelp();
        }
        if (parsed.has(HELP)) {
            context.out().print(help());
            return 0;
        }
        if (parsed.has(USAGE)) {
            context.out().print(usage());
            return 0;
        }
        if (parsed.has(VERSION)) {
            context.out().println(GantryVersion.line());
            return 0;
        }
        return execute(parsed);
    }

    /** Prints the pointer to --help; returns 1. */
    int tryHelp() {
        context.err().println("Try \"" + name + " --help\" for more information");
        return 1;
    }

    /** Prints "CMD: error: LINE" for each line; returns 1. */
    int error(String... lines) {
        for (String line : lines) {
            context.err().println(name + ": error: " + line);
        }
        return 1;
    }

    String name() {
        return name;
    }

    /** The names of a comma-separated option value ({@code -u a,b}), blanks dropped, in order, each once; none for null. */
    static Set<String> names(String list) {
        Set<String> out = new LinkedHashSet<>();
        if (list != null) {
            for (String s : list.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }
}
