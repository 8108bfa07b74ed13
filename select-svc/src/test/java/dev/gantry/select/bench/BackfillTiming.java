package dev.gantry.select.bench;

import dev.gantry.select.placement.BackfillAnswer;
import dev.gantry.select.placement.BackfillJob;
import dev.gantry.select.placement.BackfillOptions;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.placement.PlanOptions;
import dev.gantry.select.placement.ReservationMode;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A quick, non-JMH look at the backfill pass's cost and outcome: {@code java … BackfillTiming [nodes] [pending]
 * [running] [window] [EASY|CONSERVATIVE]}. Prints wall and CPU time of each pass and how many jobs got each answer.
 */
public final class BackfillTiming {
    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int pending = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int running = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
        long window = args.length > 3 ? Long.parseLong(args[3]) : 0;
        List<ReservationMode> modes = args.length > 4 ? List.of(ReservationMode.valueOf(args[4])) : List.of(ReservationMode.values());
        BenchCluster cluster = BenchCluster.of(nodes, pending, running, 42);
        List<BackfillJob> jobs = cluster.pending().stream().map(r -> new BackfillJob(r, true)).toList();
        PlacementPlanner planner = PlacementPlanner.standard();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 4; round++) {
            for (ReservationMode mode : modes) {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                List<BackfillAnswer> answers = planner.backfill(cluster.view(), jobs,
                        new BackfillOptions(cluster.now(), mode, window, 60, 0));
                long t1 = System.nanoTime();
                long c1 = threads.getCurrentThreadCpuTime();
                Map<String, Long> kinds = answers.stream().collect(Collectors.groupingBy(a -> a.getClass().getSimpleName(),
                        java.util.TreeMap::new, Collectors.counting()));
                System.out.printf("%s %d jobs, %d nodes, %d running: %.1f ms wall, %.1f ms CPU %s%n", mode, pending, nodes,
                        running, (t1 - t0) / 1e6, (c1 - c0) / 1e6, kinds);
            }
            long m0 = System.nanoTime();
            var main = planner.plan(cluster.view(), cluster.pending().subList(0, 10_000), new PlanOptions(true, false, cluster.now()));
            long m1 = System.nanoTime();
            System.out.printf("main pass 10000: %.2f ms, %d started%n", (m1 - m0) / 1e6,
                    main.stream().filter(p -> p instanceof dev.gantry.select.placement.Placement.Start).count());
        }
    }
}
