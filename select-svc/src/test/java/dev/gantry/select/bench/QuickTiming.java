package dev.gantry.select.bench;

import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.placement.PlanOptions;
import java.util.List;

/**
 * A quick, non-JMH look at the plan's cost and outcome: {@code java … QuickTiming [nodes] [jobs]}. Reports the
 * planning thread's CPU time beside wall time, which stays meaningful on a machine other builds are loading.
 */
public final class QuickTiming {
    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        BenchCluster cluster = BenchCluster.of(nodes, jobs, 42);
        PlacementPlanner planner = PlacementPlanner.standard();
        for (int round = 0; round < 5; round++) {
            long m0 = System.nanoTime();
            List<Placement> main = planner.plan(cluster.view(), cluster.pending(), new PlanOptions(true, false, cluster.now()));
            long m1 = System.nanoTime();
            List<dev.gantry.select.placement.ResourceRequest> one = List.of(cluster.pending().get(round));
            long w0 = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                planner.plan(cluster.view(), one, new PlanOptions(false, true, cluster.now()));
            }
            long w1 = System.nanoTime();
            System.out.printf("main pass: %.1f ms (%d started); will-run: %.3f ms each%n", (m1 - m0) / 1e6,
                    main.stream().filter(p -> p instanceof Placement.Start).count(), (w1 - w0) / 1e6 / 100);
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            List<Placement> out = planner.plan(cluster.view(), cluster.pending(), new PlanOptions(false, true, cluster.now()));
            long t1 = System.nanoTime();
            long c1 = threads.getCurrentThreadCpuTime();
            long started = out.stream().filter(p -> p instanceof Placement.Start).count();
            long reserved = out.stream().filter(p -> p instanceof Placement.Pending pp && pp.reservation().isPresent()).count();
            System.out.printf("plan %d jobs on %d nodes: %.1f ms wall, %.1f ms CPU, started %d, reserved %d%n", jobs, nodes,
                    (t1 - t0) / 1e6, (c1 - c0) / 1e6, started, reserved);
        }
    }
}
