package dev.gantry.cli.command;

import dev.gantry.cli.CliCommand;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.GantryVersion;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.controller.ControllerNotFoundException;
import dev.gantry.cli.getopt.Getopt;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.getopt.UsageException;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * What the Slurm commands share: getopt parsing with glibc's messages followed by
 * {@code Try "CMD --help" for more information} (exit 1), --help, --usage and -V/--version.
 */
abstract class SlurmCommand implements CliCommand {

    static final String HELP = "help";
    /** -h, --noheader of the {@link LetterH#NOHEADER} commands. */
    static final String NOHEADER = "noheader";
    static final String USAGE = "usage";
    static final String VERSION = "version";

    /** What -h means: --help (sbatch, scancel, scontrol, srun, sshare) or --noheader (squeue, sinfo, sprio). */
    enum LetterH { HELP, NOHEADER }

    protected final CliContext context;
    private final String name;
    private final LetterH letterH;

    SlurmCommand(CliContext context, String name, LetterH letterH) {
        this.context = context;
        this.name = name;
        this.letterH = letterH;
    }

    /** The command's own options; -h, --noheader, --help, --usage and -V are added here. */
    abstract List<OptionSpec> options();

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
        List<OptionSpec> specs = new ArrayList<>();
        if (letterH == LetterH.NOHEADER) {
            specs.add(OptionSpec.flag('h', NOHEADER)); // first, where the reports list it
        }
        specs.addAll(options());
        specs.add(letterH == LetterH.HELP ? OptionSpec.flag('h', HELP) : OptionSpec.flag('\0', HELP));
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
        try {
            return execute(parsed);
        } catch (Stop stop) {
            return stop.status;
        }
    }

    /** Ends {@link #execute} early with an exit status; the command has printed why. */
    static final class Stop extends RuntimeException {
        private final int status;

        Stop(int status) {
            super(null, null, false, false);
            this.status = status;
        }
    }

    /** What a command does in a controller session. */
    @FunctionalInterface
    interface SessionWork<T> {
        T apply(ControllerSession session);
    }

    /**
     * Runs {@code work} in a session of its own and returns its exit status; with no controller configured, prints
     * "CMD: error: ..." and returns 1. Failed calls are {@code work}'s to report.
     */
    int inSession(SessionWork<Integer> work) {
        try (ControllerSession session = ControllerSession.open(context)) {
            return work.apply(session);
        } catch (ControllerNotFoundException e) {
            return error(e.getMessage());
        }
    }

    /**
     * Asks the controller in a session of its own. With no controller configured, prints "CMD: error: ..." and
     * stops with 1; when a call fails, stops with what {@code onFailure} returns for the failure's description
     * ({@link ControllerFailure#describe}), which prints the command's own message.
     */
    <T> T ask(SessionWork<T> call, ToIntFunction<String> onFailure) {
        try (ControllerSession session = ControllerSession.open(context)) {
            return call.apply(session);
        } catch (ControllerNotFoundException e) {
            throw new Stop(error(e.getMessage()));
        } catch (StatusRuntimeException e) {
            throw new Stop(onFailure.applyAsInt(ControllerFailure.describe(e)));
        }
    }

    /** Slurm's answer to an operand the command takes none of: "CMD: error: Unrecognized option: X", the --help pointer, stop with 1. */
    void refuseOperands(List<String> operands) {
        if (!operands.isEmpty()) {
            error("Unrecognized option: " + operands.get(0));
            throw new Stop(tryHelp());
        }
    }

    /** Prints the pointer to --help; returns 1. */
    int tryHelp() {
        context.err().println("Try \"" + name + " --help\" for more information");
        return 1;
    }

    /** Prints {@code line} to stderr as it is (Slurm's API error lines carry no command prefix); returns 1. */
    int fail(String line) {
        context.err().println(line);
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
