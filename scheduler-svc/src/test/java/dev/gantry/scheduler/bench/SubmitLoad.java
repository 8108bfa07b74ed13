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
 * --target H:P    submit to a running scheduler-svc instead (no crash; its CPU is not counted)
 * --jdbc URL      with --target: check the acknowledged jobs in that database (--jdbc-user, --jdbc-password)
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
        out.printf("submit-load: %d jobs (+%d warm-up), %d clients x %d in flight, %s, %d CPUs here, load average %s,"
                + " run dir %s%n", jobs, warmup, clients, inFlight,
                o.containsKey("--target") ? "to " + o.get("--target") : nodes + " nodes",
                Runtime.getRuntime().availableProcessors(), loadAverage(), runDir);

        Map<Long, String> acknowledged = new HashMap<>();
        List<Long> duplicates = new ArrayList<>();
        LoadClients.Round measured;
        DurabilityCheck.Outcome check = null;
        if (o.containsKey("--target")) {
            // another cluster's run directory (--run-dir of its authentication key): its clients sign local tokens with it
            Path keys = Path.of(o.getOrDefault("--auth-run-dir", runDir.toString()));
            measured = load(out, o.get("--target"), clients, inFlight, warmup, jobs, null, null, acknowledged, duplicates,
                    c -> SchedulerProcess.token(keys, "user" + c, 10_000 + c, 10_000));
            if (o.containsKey("--jdbc")) {
                var ds = new org.postgresql.ds.PGSimpleDataSource();
                ds.setURL(o.get("--jdbc"));
                ds.setUser(o.getOrDefault("--jdbc-user", ""));
                ds.setPassword(o.getOrDefault("--jdbc-password", ""));
                check = DurabilityCheck.check(ds, acknowledged, duplicates);
            }
        } else {
            try (SchedulerProcess scheduler = SchedulerProcess.start(Path.of(o.get("--jar")).toAbsolutePath(), runDir, nodes,
                    jvmOptions, Duration.ofSeconds(120))) {
                out.println("scheduler-svc pid " + scheduler.pid() + " serving at " + scheduler.address());
                measured = load(out, scheduler.address(), clients, inFlight, warmup, jobs, scheduler.handle(),
                        scheduler.postgres(), acknowledged, duplicates, c -> SchedulerProcess.token(runDir, "user" + c, 10_000 + c, 10_000));
                if (o.containsKey("--jfr")) {
                    scheduler.dumpRecording(Path.of(o.get("--jfr")).toAbsolutePath());
                }
                scheduler.crash();
                out.println("crashed scheduler-svc and its PostgreSQL (SIGKILL); reopening the database");
            }
            try (Database db = Database.embedded(runDir.resolve("state"), 2)) {
                check = DurabilityCheck.check(db.dataSource(), acknowledged, duplicates);
            }
        }
        if (check == null) {
            out.println("durability: not checked (give --jdbc URL [--jdbc-user U --jdbc-password P] with --target)");
        } else {
            out.printf("durability: %d acknowledged, %d rows in jobs, missing %d, wrong %d, duplicate ids %d -> %s%n",
                    check.acknowledged(), check.rows(), check.missing().size(), check.wrong().size(), check.duplicates().size(),
                    check.passed() ? "PASS" : "FAIL " + check.missing().stream().limit(10).toList()
                            + check.wrong().stream().limit(10).toList());
        }
        measured.errors().stream().limit(10).forEach(e -> out.println("error: " + e));
        boolean ok = (check == null || check.passed()) && measured.errors().isEmpty() && measured.acknowledged() == jobs;
        System.exit(ok ? 0 : 1);
    }

    /** The warm-up round, then the measured one with its CPU report; records every acknowledged id. */
    private static LoadClients.Round load(PrintStream out, String target, int clients, int inFlight, int warmup, int jobs,
            ProcessHandle scheduler, ProcessHandle postgres, Map<Long, String> acknowledged, List<Long> duplicates,
            java.util.function.IntFunction<String> tokens) throws InterruptedException {
        try (LoadClients load = new LoadClients(target, clients, inFlight, tokens)) {
            if (warmup > 0) {
                LoadClients.Round w = load.run(0, warmup);
                out.printf("warm-up:  %s%n", summary(w));
                collect(w, 0, acknowledged, duplicates);
            }
            CpuReport cpu = CpuReport.start(scheduler, postgres);
            LoadClients.Round measured = load.run(warmup, jobs);
            out.printf("measured: %s%n", summary(measured));
            cpu.print(out, measured.acknowledged());
            collect(measured, warmup, acknowledged, duplicates);
            out.printf("load average now: %s%n", loadAverage());
            return measured;
        }
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
