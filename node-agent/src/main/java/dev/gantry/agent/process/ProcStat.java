package dev.gantry.agent.process;

import java.util.Optional;

/**
 * The fields of /proc/&lt;pid&gt;/stat the agent uses (proc(5)). Times are in clock ticks, {@code rssPages} in
 * pages; {@code startTicks} is the process's start time after boot in clock ticks, which with the pid names one
 * process for good (a reused pid has another start time).
 */
public record ProcStat(long pid, char state, long pgrp, long utime, long stime, long cutime, long cstime, long startTicks, long rssPages) {

    /** Whether the process still runs code: zombies (Z) and dead (X) entries only wait to be reaped. */
    public boolean isLive() {
        return state != 'Z' && state != 'X';
    }

    /** utime + stime + cutime + cstime: this process and its waited-for children. */
    public long cpuTicksWithChildren() {
        return utime + stime + cutime + cstime;
    }

    /**
     * Parses one stat line. The command name (field 2) may contain spaces and parentheses, so fields are counted
     * from its last closing parenthesis. Empty when the line is not a stat line.
     */
    public static Optional<ProcStat> parse(String line) {
        int close = line.lastIndexOf(')');
        int space = line.indexOf(' ');
        if (close < 0 || space < 0 || close + 2 > line.length()) {
            return Optional.empty();
        }
        String[] f = line.substring(close + 2).trim().split(" ");
        // f[0] is field 3 (state); field n is f[n - 3]
        if (f.length < 22) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ProcStat(
                    Long.parseLong(line.substring(0, space)),
                    f[0].charAt(0),
                    Long.parseLong(f[5 - 3]),
                    Long.parseLong(f[14 - 3]),
                    Long.parseLong(f[15 - 3]),
                    Long.parseLong(f[16 - 3]),
                    Long.parseLong(f[17 - 3]),
                    Long.parseLong(f[22 - 3]),
                    Long.parseLong(f[24 - 3])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
