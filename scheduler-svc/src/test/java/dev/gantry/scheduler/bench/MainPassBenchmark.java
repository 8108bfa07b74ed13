package dev.gantry.scheduler.bench;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.cycle.Eligibility;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.ResourceAsk;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The controller's half of a main pass over 10,000 pending jobs (issue 4: a main pass under 10 ms): eligibility
 * (holds, begin times, QOS limits — two of the three QOS have limits), partition checks and the queue order, i.e.
 * {@code MainPass.prepare}; select-svc's half (the Plan call) is {@code PlanBenchmark.mainPass} there. Run with
 * scheduler-svc/bench/main-pass.sh.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MainPassBenchmark {

    @Param({"10000"})
    public int jobs;

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

    /** A synthetic queue for the pure pass, built as a value (no controller, so no lifecycle to go through). */
    private ClusterState state;

    @Setup(Level.Trial)
    public void setUp() {
        state = new ClusterState(ConfigParser.parse(Path.of("bench.conf"), """
                NodeName=n[1-1000] CPUs=64 RealMemory=256000
                PartitionName=batch Nodes=n[1-800] Default=YES MaxTime=2-0 State=UP
                PartitionName=short Nodes=n[801-1000] MaxTime=4:00:00 PriorityTier=10 State=UP
                QOS=normal
                QOS=capped MaxJobsPerUser=20
                QOS=group GrpTRES=cpu=20000
                """));
        SplittableRandom r = new SplittableRandom(42);
        String[] qos = {"normal", "capped", "group"};
        JobRequest request = JobRequest.builder().script("#!/bin/sh\ntrue\n").workDir("/tmp").build();
        for (int i = 1; i <= jobs; i++) {
            String partition = r.nextInt(5) == 0 ? "short" : "batch";
            int cpus = 1 << r.nextInt(7);
            JobControls c = JobControls.NONE.withQos(qos[r.nextInt(3)])
                    .withHold(r.nextInt(50) == 0 ? JobControls.Hold.USER : JobControls.Hold.NONE);
            state.put(new JobRecord(i, request, "job" + i, "user" + r.nextInt(200), 1000, 1000, List.of(partition),
                    new ResourceAsk(1, 1, cpus, 1, 1024L * cpus), 3600, JobState.PENDING, false, PendingReason.NONE,
                    partition, List.of(), NOW.minusSeconds(r.nextInt(86_400)), null, null, NOW, 0, 0,
                    1 + r.nextInt(100_000), c, null, 0));
        }
    }

    @Benchmark
    public MainPass.Input prepare() {
        Eligibility e = new Eligibility(NOW, List.of(), state.config().accounting().qos(),
                job -> Eligibility.Verdict.SATISFIED);
        return MainPass.prepare(state, e);
    }
}
