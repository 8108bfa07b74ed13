package dev.gantry.cli;

import java.util.List;

/** One command (sbatch, squeue, ...): runs with its arguments and returns the exit status. */
@FunctionalInterface
public interface CliCommand {

    /** Runs the command; output goes to the streams of the context it was made with. */
    int run(List<String> args);
}
