package dev.gantry.scheduler.bench;

import java.io.PrintStream;
import java.util.Map;

/**
 * CPU used by the scheduler, its PostgreSQL and this client process between {@link #start} and {@link #print}, per
 * acknowledged submission, in total and by thread. A process not given (an external scheduler or database) counts 0.
 */
final class CpuReport {

    private final ProcessHandle scheduler;
    private final ProcessHandle postgres;
    private final double[] before;
    private final Map<String, Double> schedulerThreads;
    private final Map<String, Double> clientThreads;

    private CpuReport(ProcessHandle scheduler, ProcessHandle postgres) {
        this.scheduler = scheduler;
        this.postgres = postgres;
        this.before = now();
        this.schedulerThreads = scheduler == null ? Map.of() : CpuTime.byThread(scheduler.pid());
        this.clientThreads = CpuTime.byThread(ProcessHandle.current().pid());
    }

    /** @param scheduler the scheduler's JVM, or null; @param postgres its postmaster, or null */
    static CpuReport start(ProcessHandle scheduler, ProcessHandle postgres) {
        return new CpuReport(scheduler, postgres);
    }

    private double[] now() {
        return new double[] {scheduler == null ? 0 : CpuTime.seconds(scheduler),
                postgres == null ? 0 : CpuTime.withDescendants(postgres), CpuTime.seconds(ProcessHandle.current())};
    }

    void print(PrintStream out, int acknowledged) {
        double[] after = now();
        if (scheduler == null) {
            out.printf("CPU per submission: clients %.0f us (the scheduler and its database are not measured)%n",
                    (after[2] - before[2]) * 1e6 / acknowledged);
            return;
        }
        Map<String, Double> schedulerAfter = scheduler == null ? Map.of() : CpuTime.byThread(scheduler.pid());
        Map<String, Double> clientAfter = CpuTime.byThread(ProcessHandle.current().pid());
        int cpus = Runtime.getRuntime().availableProcessors();
        double perJob = 1e6 / acknowledged;
        double total = after[0] + after[1] + after[2] - before[0] - before[1] - before[2];
        out.printf("CPU per submission: scheduler-svc %.0f us, PostgreSQL %.0f us, clients %.0f us; total %.0f us"
                + " (%.0f/s if %d CPUs did nothing else)%n", (after[0] - before[0]) * perJob, (after[1] - before[1]) * perJob,
                (after[2] - before[2]) * perJob, total * perJob, cpus * acknowledged / total, cpus);
        double steady = total - CpuTime.compilerSeconds(schedulerThreads, schedulerAfter)
                - CpuTime.compilerSeconds(clientThreads, clientAfter);
        out.printf("  without the JIT compiler threads (steady state): %.0f us per submission (%.0f/s if %d CPUs did"
                + " nothing else)%n", steady * perJob, cpus * acknowledged / steady, cpus);
        out.printf("  scheduler-svc threads: %s%n", CpuTime.topThreads(schedulerThreads, schedulerAfter, acknowledged, 8));
        out.printf("  client threads: %s%n", CpuTime.topThreads(clientThreads, clientAfter, acknowledged, 5));
    }
}
