package dev.gantry.agent.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads process state from /proc. A process may vanish between listing and reading: it is then skipped. Stat
 * lines are read as ISO-8859-1 so that any byte in a command name decodes.
 */
public final class ProcFs {

    private static final Path PROC = Path.of("/proc");

    private ProcFs() {}

    /** Clock ticks per second (sysconf(_SC_CLK_TCK)), the unit of stat's times. */
    public static double ticksPerSecond() {
        long ticks = LibC.INSTANCE.sysconf(LibC.SC_CLK_TCK);
        return ticks > 0 ? ticks : 100;
    }

    /** The page size in KiB, the unit of stat's rss. */
    public static long pageKb() {
        long page = LibC.INSTANCE.sysconf(LibC.SC_PAGESIZE);
        return page > 0 ? page / 1024 : 4;
    }

    /** Whether {@code pid} still names the live process that started at {@code startTicks} (not a reused pid). */
    public static boolean isAlive(long pid, long startTicks) {
        return stat(pid).filter(p -> p.isLive() && p.startTicks() == startTicks).isPresent();
    }

    public static Optional<ProcStat> stat(long pid) {
        try {
            return ProcStat.parse(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The process's command name (/proc/&lt;pid&gt;/comm: its executable's or script's file name, 15 bytes at most). */
    public static Optional<String> command(long pid) {
        try {
            return Optional.of(Files.readString(PROC.resolve(Long.toString(pid)).resolve("comm"), StandardCharsets.ISO_8859_1).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Every process on the host (zombies included; see {@link ProcStat#isLive()}). */
    public static List<ProcStat> all() {
        List<ProcStat> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, p -> isNumeric(p.getFileName().toString()))) {
            for (Path dir : dirs) {
                stat(Long.parseLong(dir.getFileName().toString())).ifPresent(out::add);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        return out;
    }

    /** The live processes of one process group. */
    public static List<ProcStat> group(long pgid) {
        return all().stream().filter(p -> p.pgrp() == pgid && p.isLive()).toList();
    }

    private static boolean isNumeric(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
