package dev.gantry.cli;

import dev.gantry.cli.command.SbatchCommand;
import dev.gantry.cli.command.ScancelCommand;
import dev.gantry.cli.command.ScontrolCommand;
import dev.gantry.cli.command.SinfoCommand;
import dev.gantry.cli.command.SprioCommand;
import dev.gantry.cli.command.SqueueCommand;
import dev.gantry.cli.command.SrunCommand;
import dev.gantry.cli.command.SshareCommand;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Entry point of every Gantry command: {@code Main sbatch ARGS...}, {@code Main squeue ARGS...}. The bin/
 * wrappers pass the command name first. Only the named command's classes are loaded.
 */
public final class Main {

    /**
     * Command name to a factory of the command. Add new commands here; a picocli command plugs in with
     * {@link CommandRunner#picocli}.
     */
    static final Map<String, Function<CliContext, CliCommand>> COMMANDS = Map.of(
            "sbatch", SbatchCommand::new,
            "squeue", SqueueCommand::new,
            "scancel", ScancelCommand::new,
            "sinfo", SinfoCommand::new,
            "scontrol", ScontrolCommand::new,
            "sprio", SprioCommand::new,
            "sshare", SshareCommand::new,
            "srun", SrunCommand::new);

    private Main() {}

    public static void main(String[] args) {
        // A command line tool: no "no SLF4J providers" warning on stderr.
        defaultProperty("slf4j.internal.verbosity", "ERROR");
        int code = run(args, CliContext.system());
        System.exit(code);
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Runs the command named by {@code args[0]} with the rest of the arguments; returns the exit status. */
    public static int run(String[] args, CliContext context) {
        Function<CliContext, CliCommand> factory = args.length == 0 ? null : COMMANDS.get(args[0]);
        if (factory == null) {
            context.err().println("usage: gantry-cli COMMAND [ARGS...]; COMMAND is one of "
                    + String.join(", ", new TreeMap<>(COMMANDS).keySet()));
            context.err().flush();
            return 1;
        }
        int code = factory.apply(context).run(List.of(Arrays.copyOfRange(args, 1, args.length)));
        context.out().flush();
        context.err().flush();
        return code;
    }
}
