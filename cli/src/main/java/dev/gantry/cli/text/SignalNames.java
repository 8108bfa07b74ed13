package dev.gantry.cli.text;

import java.util.List;
import java.util.Locale;

/**
 * Signal names as scancel --signal takes them (Slurm's sig_name2num): a number 1..64, or a name with or without its
 * SIG prefix, in any case (USR1, SIGUSR1, usr1). Linux numbering (x86-64, arm64).
 */
public final class SignalNames {
    private SignalNames() {}

    private static final List<String> NAMES = List.of("", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL",
            "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
            "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS");

    /** The signal's number, or 0 when {@code text} names none. */
    public static int parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
            try {
                int n = Integer.parseInt(t);
                return n >= 1 && n <= 64 ? n : 0;
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        if (t.startsWith("SIG")) {
            t = t.substring(3);
        }
        int i = t.isEmpty() ? -1 : NAMES.indexOf(t);
        return Math.max(i, 0);
    }
}
