package dev.gantry.cli;

import java.io.PrintWriter;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * Runs picocli commands as {@link CliCommand}s, with Slurm-style usage errors and the context's streams.
 * The Slurm commands parse their options with {@link dev.gantry.cli.getopt.Getopt} instead, because loading
 * picocli costs about 100 ms per run (its Java 5 class files cannot be kept in a CDS/AOT archive); commands
 * whose start-up time matters less (e.g. a cluster launcher) can be picocli commands:
 * {@code COMMANDS.put("gantry", CommandRunner.picocli("gantry", GantryCommand::new))}.
 */
public final class CommandRunner {

    private CommandRunner() {}

    /** A command factory for a picocli command object (a {@code Callable<Integer>} or {@code Runnable}). */
    public static Function<CliContext, CliCommand> picocli(String name, Function<CliContext, Object> factory) {
        return context -> args -> run(name, factory.apply(context), args.toArray(String[]::new), context);
    }

    /**
     * Parses {@code args} into {@code command} and calls it.
     *
     * @param name the command's name, used in messages ("gantry: unrecognized option ...")
     * @return the exit status
     */
    public static int run(String name, Object command, String[] args, CliContext context) {
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(context.out(), true));
        cl.setErr(new PrintWriter(context.err(), true));
        cl.setOverwrittenOptionsAllowed(true);
        cl.setParameterExceptionHandler((e, a) -> UsageErrors.report(name, e, a, context.err()));
        cl.setExecutionExceptionHandler((e, c, parseResult) -> {
            context.err().println(name + ": error: " + e);
            return 1;
        });
        int code = cl.execute(args);
        context.out().flush();
        context.err().flush();
        return code;
    }
}
