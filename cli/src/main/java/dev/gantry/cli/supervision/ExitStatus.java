package dev.gantry.cli.supervision;

import java.util.Map;

/**
 * How a service's process ended, as {@code gantry status} writes it. The JDK reports a process killed by signal N as
 * the status 128 + N (as a shell does); a JVM that SIGTERM stopped exits 143 itself, which reads the same.
 */
public record ExitStatus(int code, boolean known) {

    private static final Map<Integer, String> NAMES = Map.of(1, "SIGHUP", 2, "SIGINT", 3, "SIGQUIT", 6, "SIGABRT",
            9, "SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 15, "SIGTERM");

    /** A status the supervisor got from its child. */
    public static ExitStatus of(int code) {
        return new ExitStatus(code, true);
    }

    /** A process the supervisor did not start (it can see it is gone, not why). */
    public static ExitStatus unknown() {
        return new ExitStatus(-1, false);
    }

    /** "killed by signal 9 (SIGKILL)", "exited with status 1", "exited (status unknown: …)". */
    public String describe() {
        if (!known) {
            return "exited (status unknown: not a child of this supervisor)";
        }
        if (code > 128 && code < 128 + 65) {
            int signal = code - 128;
            String name = NAMES.get(signal);
            return "killed by signal " + signal + (name == null ? "" : " (" + name + ")");
        }
        return "exited with status " + code;
    }
}
