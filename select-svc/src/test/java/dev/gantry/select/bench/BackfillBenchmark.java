package dev.gantry.select.bench;

import dev.gantry.select.placement.BackfillAnswer;
import dev.gantry.select.placement.BackfillJob;
import dev.gantry.select.placement.BackfillOptions;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.placement.ReservationMode;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The backfill target (docs/benchmarks.md, "select-svc"): one full backfill pass — the core of one
 * EarliestStarts call, no bf_max_job_test cap — over 100,000 pending jobs on 10,000 nodes with 20,000 running jobs
 * ({@link BenchCluster#of(int, int, int, long)}), EASY and conservative, bf_resolution 60 s, bf_window as given
 * (86,400 s is Slurm's default of 1440 minutes; 0 = none).
 *
 * <p>Run: {@code select-svc/bench/run.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx3g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class BackfillBenchmark {

    @Param({"100000"})
    int pending;

    @Param({"EASY", "CONSERVATIVE"})
    ReservationMode mode;

    @Param({"86400"})
    long windowSeconds;

    private final PlacementPlanner planner = PlacementPlanner.standard();
    private BenchCluster cluster;
    private List<BackfillJob> jobs;

    @Setup
    public void setUp() {
        cluster = BenchCluster.of(10_000, pending, 20_000, 42);
        jobs = cluster.pending().stream().map(r -> new BackfillJob(r, true)).toList();
    }

    /** One backfill pass over the whole queue. */
    @Benchmark
    public List<BackfillAnswer> backfillPass() {
        return planner.backfill(cluster.view(), jobs, new BackfillOptions(cluster.now(), mode, windowSeconds, 60, 0));
    }
}
