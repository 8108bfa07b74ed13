package dev.gantry.agent.job;

/** POSIX signal numbers as Linux (x86-64, arm64) numbers them, and their names for logs and metric labels. */
public final class Signals {

    public static final int MIN = 1;
    public static final int MAX = 64;

    public static final int SIGHUP = 1;
    public static final int SIGINT = 2;
    public static final int SIGKILL = 9;
    public static final int SIGUSR1 = 10;
    public static final int SIGTERM = 15;
    public static final int SIGCONT = 18;
    public static final int SIGSTOP = 19;

    private static final String[] NAMES = {
        null, "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE",
        "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM",
        "PROF", "WINCH", "IO", "PWR", "SYS",
    };

    private Signals() {}

    public static boolean isValid(int signal) {
        return signal >= MIN && signal <= MAX;
    }

    /** TERM, KILL, …; SIG32 and SIG33 (glibc-internal); RTMIN+n for 34..64. Precondition: {@link #isValid}. */
    public static String name(int signal) {
        if (signal < NAMES.length) {
            return NAMES[signal];
        }
        return signal < 34 ? "SIG" + signal : "RTMIN+" + (signal - 34);
    }
}
