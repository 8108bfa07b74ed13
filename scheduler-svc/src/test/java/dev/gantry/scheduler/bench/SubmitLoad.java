package dev.gantry.scheduler.bench;

import dev.gantry.scheduler.store.Database;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end submission throughput: a real scheduler-svc with its embedded PostgreSQL, N concurrent gRPC clients,
 * jobs acknowledged per second and their latency; then a crash (SIGKILL to the scheduler and to PostgreSQL) and a
 * direct read of the jobs table that must hold every acknowledged job. Exit status 0 only if every submission was
 * acknowledged and every acknowledged job survived. Run it with {@code scheduler-svc/bench/submit-load.sh}.
 *
 * <pre>
 * --jobs N        measured submissions (10000)
 * --warmup N      submissions before the measured ones, not timed (10000: the JIT compilers are still busy
 *                 after fewer); they are checked for durability too
 * --clients N     concurrent clients, one connection each (8)
 * --in-flight N   outstanding submissions per client (1: sbatch in a loop)
 * --nodes N       nodes in the config (1000)
 * --jar PATH      scheduler-svc jar (scheduler-svc/target/gantry-scheduler-svc.jar)
 * --run-dir DIR   where the state, config and scheduler.log go (scheduler-svc/target/submit-load/TIMESTAMP)
 * --jfr FILE      record the scheduler with Java Flight Recorder (profile settings) into FILE
 * --jvm-opt OPT   another option for the scheduler's JVM (repeatable)
 * </pre>
 */
public final class SubmitLoad {
    private SubmitLoad() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>(Map.of("--jobs", "10000", "--warmup", "10000", "--clients", "8",
                "--in-flight", "1", "--nodes", "1000", "--jar", "scheduler-svc/target/gantry-scheduler-svc.jar"));
        List<String> jvmOptions = new ArrayList<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length || !args[i].startsWith("--")) {
                throw new IllegalArgumentException("usage: --option value …; got " + String.join(" ", args));
            }
            if (args[i].equals("--jvm-opt")) {
                jvmOptions.add(args[i + 1]);
            } else {
                o.put(args[i], args[i + 1]);
            }
        }
        int jobs = Integer.parseInt(o.get("--jobs"));
        int warmup = Integer.parseInt(o.get("--warmup"));
        int clients = Integer.parseInt(o.get("--clients"));
        int inFlight = Integer.parseInt(o.get("--in-flight"));
        int nodes = Integer.parseInt(o.get("--nodes"));
        Path runDir = Path.of(o.getOrDefault("--run-dir", "scheduler-svc/target/submit-load/"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))).toAbsolutePath();
        if (o.containsKey("--jfr")) {
            jvmOptions.add("-XX:StartFlightRecording=settings=profile"); // dumped before the crash
        }
        Files.createDirectories(runDir);
        PrintStream out = System.out;
        out.printf("submit-load: %d jobs (+%d warm-up), %d clients x %d in flight, %d nodes, %d CPUs here, load average %s,"
                + " run dir %s%n", jobs, warmup, clients, inFlight, nodes, Runtime.getRuntime().availableProcessors(), loadAverage(),
                runDir);

        Map<Long, String> acknowledged = new HashMap<>();
        List<Long> duplicates = new ArrayList<>();
        LoadClients.Round measured;
        try (SchedulerProcess scheduler = SchedulerProcess.start(Path.of(o.get("--jar")).toAbsolutePath(), runDir, nodes,
                jvmOptions, Duration.ofSeconds(120))) {
            out.println("scheduler-svc pid " + scheduler.pid() + " serving at " + scheduler.address());
            try (LoadClients load = new LoadClients(scheduler.address(), clients, inFlight)) {
                if (warmup > 0) {
                    LoadClients.Round w = load.run(0, warmup);
                    out.printf("warm-up:  %s%n", summary(w));
                    collect(w, 0, acknowledged, duplicates);
                }
                ProcessHandle pg = scheduler.postgres();
                double[] before = {CpuTime.seconds(scheduler.handle()), CpuTime.withDescendants(pg), CpuTime.seconds(ProcessHandle.current())};
                var threadsBefore = CpuTime.byThread(scheduler.pid());
                var clientThreadsBefore = CpuTime.byThread(ProcessHandle.current().pid());
                measured = load.run(warmup, jobs);
                var threadsAfter = CpuTime.byThread(scheduler.pid());
                var clientThreadsAfter = CpuTime.byThread(ProcessHandle.current().pid());
                double[] after = {CpuTime.seconds(scheduler.handle()), CpuTime.withDescendants(pg), CpuTime.seconds(ProcessHandle.current())};
                out.printf("measured: %s%n", summary(measured));
                double perJob = 1e6 / measured.acknowledged();
                out.printf("CPU per submission: scheduler-svc %.0f us, PostgreSQL %.0f us, clients %.0f us; total %.0f us"
                        + " (%.0f/s if %d CPUs did nothing else)%n", (after[0] - before[0]) * perJob, (after[1] - before[1]) * perJob,
                        (after[2] - before[2]) * perJob, (after[0] + after[1] + after[2] - before[0] - before[1] - before[2]) * perJob,
                        Runtime.getRuntime().availableProcessors() * measured.acknowledged()
                                / (after[0] + after[1] + after[2] - before[0] - before[1] - before[2]),
                        Runtime.getRuntime().availableProcessors());
                double jit = CpuTime.compilerSeconds(threadsBefore, threadsAfter) + CpuTime.compilerSeconds(clientThreadsBefore,
                        clientThreadsAfter);
                double steady = after[0] + after[1] + after[2] - before[0] - before[1] - before[2] - jit;
                out.printf("  without the JIT compiler threads (steady state): %.0f us per submission (%.0f/s if %d CPUs did"
                        + " nothing else)%n", steady * perJob, Runtime.getRuntime().availableProcessors() * measured.acknowledged() / steady,
                        Runtime.getRuntime().availableProcessors());
                out.printf("  scheduler-svc threads: %s%n", CpuTime.topThreads(threadsBefore, threadsAfter, measured.acknowledged(), 8));
                out.printf("  client threads: %s%n", CpuTime.topThreads(clientThreadsBefore, clientThreadsAfter, measured.acknowledged(), 5));
                collect(measured, warmup, acknowledged, duplicates);
            }
            out.printf("load average now: %s%n", loadAverage());
            if (o.containsKey("--jfr")) {
                scheduler.dumpRecording(Path.of(o.get("--jfr")).toAbsolutePath());
            }
            scheduler.crash();
            out.println("crashed scheduler-svc and its PostgreSQL (SIGKILL); reopening the database");
        }
        DurabilityCheck.Outcome check;
        try (Database db = Database.embedded(runDir.resolve("state"), 2)) {
            check = DurabilityCheck.check(db.dataSource(), acknowledged, duplicates);
        }
        out.printf("durability: %d acknowledged, %d rows in jobs, missing %d, wrong %d, duplicate ids %d -> %s%n",
                check.acknowledged(), check.rows(), check.missing().size(), check.wrong().size(), check.duplicates().size(),
                check.passed() ? "PASS" : "FAIL " + check.missing().stream().limit(10).toList() + check.wrong().stream().limit(10).toList());
        measured.errors().stream().limit(10).forEach(e -> out.println("error: " + e));
        boolean ok = check.passed() && measured.errors().isEmpty() && measured.acknowledged() == jobs;
        System.exit(ok ? 0 : 1);
    }

    private static void collect(LoadClients.Round r, int first, Map<Long, String> acknowledged, List<Long> duplicates) {
        for (int i = 0; i < r.ids().length; i++) {
            long id = r.ids()[i];
            if (id != 0 && acknowledged.put(id, "bench-" + (first + i)) != null) {
                duplicates.add(id);
            }
        }
    }

    private static String summary(LoadClients.Round r) {
        var h = r.latencyNanos();
        return "%d/%d acknowledged in %.2f s = %.0f submissions/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%s"
                .formatted(r.acknowledged(), r.submitted(), r.elapsedNanos() / 1e9, r.perSecond(),
                        ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)), ms(h.getValueAtPercentile(99)),
                        ms(h.getMaxValue()), r.errors().isEmpty() ? "" : "; " + r.errors().size() + " error(s)");
    }

    private static double ms(long nanos) {
        return nanos / (double) TimeUnit.MILLISECONDS.toNanos(1);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
