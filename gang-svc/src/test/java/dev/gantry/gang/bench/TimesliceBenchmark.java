package dev.gantry.gang.bench;

import dev.gantry.common.overlap.NodeHold;
import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import dev.gantry.gang.slice.Allocated;
import dev.gantry.gang.slice.GangSettings;
import dev.gantry.gang.slice.PartitionShape;
import dev.gantry.gang.slice.SliceOutcome;
import dev.gantry.gang.slice.Timeslicer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
 * One time slice at scale (docs/benchmarks.md, "gang-svc"): 10,000 jobs over 5,000 nodes of 2 sockets × 16 cores in
 * one partition, each job on 1–4 consecutive nodes holding one of four 8-core blocks per node (seed 42), so about
 * five jobs share each node and most partitions of the list wait. Each invocation takes the next slice of the same
 * rotation (the state carries on, as in service); {@code reconcile} is the event-driven rebuild a start or an end
 * costs.
 *
 * <p>Run: {@code gang-svc/bench/run.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TimesliceBenchmark {

    @Param({"10000"})
    int jobs;

    @Param({"5000"})
    int nodes;

    /** CR_Core_Memory (specific cores) or CR_CPU_Memory (counted CPUs). */
    @Param({"CR_Core_Memory", "CR_CPU_Memory"})
    String selectTypeParameters;

    private Timeslicer slicer;
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Setup
    public void setUp() {
        Random random = new Random(42);
        List<NodeShape> shapes = new ArrayList<>(nodes);
        for (int n = 0; n < nodes; n++) {
            shapes.add(new NodeShape("n" + n, 32, 16));
        }
        boolean counted = selectTypeParameters.startsWith("CR_CPU");
        List<Allocated> allocations = new ArrayList<>(jobs);
        for (long job = 1; job <= jobs; job++) {
            int first = random.nextInt(nodes);
            int count = 1 + random.nextInt(4);
            int block = random.nextInt(4) * 8;
            List<Integer> cores = counted ? List.of() : List.of(block, block + 1, block + 2, block + 3, block + 4, block + 5, block + 6, block + 7);
            List<NodeHold> holds = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                holds.add(new NodeHold("n" + ((first + i) % nodes), 8, cores));
            }
            allocations.add(new Allocated(job, "batch", holds, false));
        }
        slicer = Timeslicer.rebuild(new GangSettings(true, Duration.ofSeconds(30)), OverlapRule.of("select/cons_tres", selectTypeParameters),
                shapes, List.of(new PartitionShape("batch", 1, true)), allocations, now);
        slicer.reconcile(now);
    }

    /** One SchedulerTimeSlice: rotate the list and rebuild the active set. */
    @Benchmark
    public SliceOutcome slice() {
        now = now.plusSeconds(30);
        return slicer.slice(now);
    }

    /** The rebuild an allocation event costs (keeps what runs, resumes what now fits). */
    @Benchmark
    public SliceOutcome reconcile() {
        return slicer.reconcile(now);
    }
}
