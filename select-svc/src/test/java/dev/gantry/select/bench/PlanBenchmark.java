package dev.gantry.select.bench;

import dev.gantry.select.placement.BackfillAnswer;
import dev.gantry.select.placement.BackfillJob;
import dev.gantry.select.placement.BackfillOptions;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.placement.PlanOptions;
import dev.gantry.select.placement.ReservationMode;
import dev.gantry.select.placement.ResourceRequest;
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
 * select-svc at scale (docs/benchmarks.md, "select-svc"): one batched plan of 10,000 pending jobs with earliest starts
 * (issue 3's target: a conservative backfill pass, bf_window 1 day; and the same plan with no window), the main pass
 * over the same queue, and a single will-run, on {@link BenchCluster}.
 *
 * <p>Run: {@code select-svc/bench/run.sh} (builds, then runs JMH from the test classpath).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PlanBenchmark {

    @Param({"10000"})
    int nodes;

    @Param({"10000"})
    int pending;

    private final PlacementPlanner planner = PlacementPlanner.standard();
    private BenchCluster cluster;
    private List<ResourceRequest> one;
    private List<ResourceRequest> big;
    private List<BackfillJob> jobs;
    private dev.gantry.select.model.ReplicaView oversubscribed;
    private dev.gantry.select.model.ReplicaView fullOversubscribed;

    @Setup
    public void setUp() {
        cluster = BenchCluster.of(nodes, pending, 42);
        one = List.of(cluster.pending().get(0));
        big = List.of(cluster.pending().stream().filter(r -> r.minNodes() == 64).findFirst().orElseThrow());
        jobs = cluster.pending().stream().map(r -> new BackfillJob(r, true)).toList();
        oversubscribed = cluster.view().withPartition(cluster.view().partition("batch").orElseThrow()
                .withOversubscribe(dev.gantry.select.fixture.Shares.oversubscribe("FORCE:4")));
        fullOversubscribed = BenchCluster.everyCoreHeldOnce(cluster.view(), "FORCE:4");
    }

    /**
     * Issue 3's batched plan: one conservative backfill pass (the core of one EarliestStarts call) over the 10,000
     * pending jobs — each starts now or is reserved (held, so later jobs plan around it), or has no start within
     * bf_window = 1 day (Slurm's default); bf_resolution 60 s (Slurm's default).
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<BackfillAnswer> batchedBackfillPlan() {
        return planner.backfill(cluster.view(), jobs,
                new BackfillOptions(cluster.now(), ReservationMode.CONSERVATIVE, 86_400, 60, 0));
    }

    /**
     * The same plan with no window and times to the second (the older Plan call with reservations): every job that
     * cannot start gets a reservation however far out, so the profile grows with the queue.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<Placement> batchedPlanWithReservations() {
        return planner.plan(cluster.view(), cluster.pending(), new PlanOptions(false, true, cluster.now()));
    }

    /** The main pass: start what fits now, stop each partition at its first blocked job. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<Placement> mainPass() {
        return planner.plan(cluster.view(), cluster.pending(), new PlanOptions(true, false, cluster.now()));
    }

    /**
     * The main pass on the same cluster with the partition OverSubscribe=FORCE:4: jobs that find too few free cores
     * share (gang scheduling), so selection looks past the free resources.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<Placement> mainPassOversubscribed() {
        return planner.plan(oversubscribed, cluster.pending(), new PlanOptions(true, false, cluster.now()));
    }

    /**
     * Sharing at scale: every core of every node held once (no memory), OverSubscribe=FORCE:4, and every one of the
     * 10,000 pending jobs tried (no stop at the first blocked) — each must share, at sharing level 1 or higher.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<Placement> planEveryJobShares() {
        return planner.plan(fullOversubscribed, cluster.pending(), new PlanOptions(false, false, cluster.now()));
    }

    /** One job's will-run (start now, or the earliest start over the profile). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<Placement> willRunOneJob() {
        return planner.plan(cluster.view(), one, new PlanOptions(false, true, cluster.now()));
    }

    /** A 64-node job's will-run (needs a reservation on a half-full cluster). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<Placement> willRunWideJob() {
        return planner.plan(cluster.view(), big, new PlanOptions(false, true, cluster.now()));
    }
}
