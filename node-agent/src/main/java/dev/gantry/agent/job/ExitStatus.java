package dev.gantry.agent.job;

/**
 * How a batch script ended, as Slurm's ExitCode={@code code}:{@code signal}: exactly one of the two is
 * meaningful; a script killed by a signal has code 0.
 */
public record ExitStatus(int code, int signal) {

    /**
     * From Java's {@link Process#exitValue()}, which reports a death by signal N as 128+N. A script that itself
     * exits with 129..192 reads as a signal too, as it does for a shell.
     */
    public static ExitStatus fromExitValue(int exitValue) {
        int signal = exitValue - 128;
        if (signal >= Signals.MIN && signal <= Signals.MAX) {
            return new ExitStatus(0, signal);
        }
        return new ExitStatus(exitValue & 0xff, 0);
    }
}
