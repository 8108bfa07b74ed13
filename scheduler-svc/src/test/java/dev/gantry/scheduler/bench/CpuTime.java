package dev.gantry.scheduler.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * CPU time (user + system) processes have used, from /proc (Linux). On a shared, loaded machine the CPU spent
 * per submission says more than the wall-clock rate: it bounds what the cores could do if they were free.
 */
final class CpuTime {
    private CpuTime() {}

    /** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux). */
    static final double TICKS_PER_SECOND = 100;

    /** Seconds of CPU used so far by a process alone; 0 where /proc cannot tell. */
    static double seconds(ProcessHandle process) {
        return ticks(process.pid()) / TICKS_PER_SECOND;
    }

    /** Seconds of CPU used so far by a process and all its descendants alive now (PostgreSQL and its backends). */
    static double withDescendants(ProcessHandle process) {
        return Stream.concat(Stream.of(process), process.descendants()).mapToLong(p -> ticks(p.pid())).sum() / TICKS_PER_SECOND;
    }

    /** Seconds of CPU used so far by each thread of a process, summed by thread name (digits folded into #). */
    static Map<String, Double> byThread(long pid) {
        Map<String, Double> out = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : tasks.toList()) {
                String name = Files.readString(t.resolve("comm")).trim().replaceAll("[0-9]+", "#");
                out.merge(name, ticks(t.resolve("stat")) / TICKS_PER_SECOND, Double::sum);
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone or /proc is not Linux's
        }
        return out;
    }

    /** CPU seconds the JIT compiler threads (C1, C2) used between two {@link #byThread} readings. */
    static double compilerSeconds(Map<String, Double> before, Map<String, Double> after) {
        return after.entrySet().stream().filter(e -> e.getKey().startsWith("C# CompilerThre"))
                .mapToDouble(e -> e.getValue() - before.getOrDefault(e.getKey(), 0.0)).sum();
    }

    /** {@code after - before} per thread name, largest first, as "name 123 us" per {@code per} units. */
    static String topThreads(Map<String, Double> before, Map<String, Double> after, double per, int limit) {
        return after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0.0)))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(limit)
                .map(e -> "%s %.0f us".formatted(e.getKey(), e.getValue() * 1e6 / per)).collect(Collectors.joining(", "));
    }

    private static long ticks(long pid) {
        return ticks(Path.of("/proc", Long.toString(pid), "stat"));
    }

    private static long ticks(Path statFile) {
        try {
            String stat = Files.readString(statFile);
            // fields after the command name, which is in parentheses and may contain spaces
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15 of stat)
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
