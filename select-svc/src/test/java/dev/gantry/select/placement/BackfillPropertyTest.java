package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * Invariants of any backfill pass over random clusters (2–6 nodes of 2–8 CPUs, one or two overlapping partitions,
 * running jobs with and without end times) and random queues (1–12 or 20–59 jobs) and parameters (mode, bf_window, bf_resolution,
 * bf_max_job_test, jobs that may not reserve), generated from the seed.
 */
class BackfillPropertyTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_000_000);
    private final PlacementPlanner planner = PlacementPlanner.standard();

    /** A generated pass: the view, the queue, the options, and CPUs per node of each queued job. */
    record Pass(ReplicaView view, List<BackfillJob> queue, BackfillOptions options, Map<Long, Integer> cpusPerNode) {}

    @Property(tries = 400)
    void noStartedJobOverlapsAHeldReservation(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        Pass pass = pass(seed);
        List<BackfillAnswer> answers = planner.backfill(pass.view(), pass.queue(), pass.options());

        // Per node, what is in use over [from, to): running jobs until their end, started jobs for their time limit,
        // held reservations for theirs. At no time may a node hold more than its CPUs.
        List<long[]> uses = new ArrayList<>(); // {node, from, to, cpus}
        ReplicaView view = pass.view();
        for (JobAllocation a : view.allocations()) {
            long end = a.endTime() == null ? Long.MAX_VALUE : a.endTime().getEpochSecond();
            a.nodes().forEach(s -> uses.add(new long[] {view.indexOf(s.node()), NOW.getEpochSecond(), end, s.cpus()}));
        }
        Map<Long, Long> limits = new HashMap<>();
        pass.queue().forEach(j -> limits.put(j.jobId(), j.request().options().timeLimitSeconds()));
        for (BackfillAnswer answer : answers) {
            long limit = limits.get(answer.jobId());
            if (answer instanceof BackfillAnswer.StartNow start) {
                for (NodeAllotment s : start.start().nodes()) {
                    uses.add(new long[] {view.indexOf(s.node()), NOW.getEpochSecond(), NOW.getEpochSecond() + limit, s.cpus()});
                }
            } else if (answer instanceof BackfillAnswer.Reserved reserved) {
                long from = reserved.reservation().start().getEpochSecond();
                for (String node : reserved.reservation().nodes()) {
                    uses.add(new long[] {view.indexOf(node), from, from + limit, pass.cpusPerNode().get(answer.jobId())});
                }
            }
        }
        TreeSet<Long> times = new TreeSet<>();
        uses.forEach(u -> times.add(u[1]));
        for (int node = 0; node < view.nodeCount(); node++) {
            for (long t : times) {
                long used = 0;
                for (long[] u : uses) {
                    if (u[0] == node && u[1] <= t && t < u[2]) {
                        used += u[3];
                    }
                }
                assertTrue(used <= view.node(node).cpus(), "seed " + seed + ": " + view.node(node).name() + " holds " + used
                        + " CPUs at +" + (t - NOW.getEpochSecond()) + ", answers " + answers);
            }
        }
    }

    @Property(tries = 400)
    void theParametersAreRespected(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        Pass pass = pass(seed);
        BackfillOptions options = pass.options();
        List<BackfillAnswer> answers = planner.backfill(pass.view(), pass.queue(), options);

        assertEquals(pass.queue().stream().map(BackfillJob::jobId).toList(), answers.stream().map(BackfillAnswer::jobId).toList());
        Map<String, Integer> held = new HashMap<>();
        for (int i = 0; i < answers.size(); i++) {
            BackfillAnswer answer = answers.get(i);
            boolean tested = options.maxJobTest() == 0 || i < options.maxJobTest();
            assertEquals(!tested, answer instanceof BackfillAnswer.NotTested, "seed " + seed + ": bf_max_job_test, job " + i);
            Placement.Reservation reservation = switch (answer) {
                case BackfillAnswer.Reserved r -> r.reservation();
                case BackfillAnswer.Estimated e -> e.reservation();
                default -> null;
            };
            if (answer instanceof BackfillAnswer.Reserved r) {
                assertTrue(pass.queue().get(i).mayReserve(), "seed " + seed + ": a job below the threshold holds " + r);
                held.merge(r.reservation().partition(), 1, Integer::sum);
            }
            if (reservation != null) {
                long start = reservation.start().getEpochSecond();
                assertTrue(start >= NOW.getEpochSecond(), "seed " + seed + ": starts before now");
                assertFalse(options.windowSeconds() > 0 && start > NOW.getEpochSecond() + options.windowSeconds(),
                        "seed " + seed + ": start past bf_window " + reservation);
                // to the second behind a running job (its end), else on bf_resolution (a held reservation's end)
                boolean runningEnd = pass.view().allocations().stream()
                        .anyMatch(a -> a.endTime() != null && a.endTime().getEpochSecond() == start);
                assertTrue(options.resolutionSeconds() <= 1 || start % options.resolutionSeconds() == 0 || runningEnd
                        || start == NOW.getEpochSecond(), "seed " + seed + ": start neither now, a running job's end nor "
                        + "on bf_resolution " + reservation);
            }
        }
        if (options.mode() == ReservationMode.EASY) {
            held.forEach((partition, count) -> assertEquals(1, count, "seed " + seed + ": EASY holds one per partition"));
        }
    }

    private static Pass pass(long seed) {
        Random random = new Random(seed);
        int nodeCount = 2 + random.nextInt(5);
        int[] cpus = new int[nodeCount];
        DomainCluster cluster = random.nextBoolean() ? DomainCluster.consTres("CR_Core") : DomainCluster.consTres("CR_CPU");
        String[] names = new String[nodeCount];
        for (int i = 0; i < nodeCount; i++) {
            cpus[i] = 2 + random.nextInt(7);
            names[i] = "n" + (i + 1);
            cluster.node(names[i], cpus[i], cpus[i], 1, 1, 0);
        }
        cluster.partition("p", names);
        cluster.partition("q", java.util.Arrays.copyOfRange(names, nodeCount / 2, nodeCount));
        int[] used = new int[nodeCount];
        for (int r = 0; r < random.nextInt(2 * nodeCount); r++) {
            int node = random.nextInt(nodeCount);
            int take = 1 + random.nextInt(cpus[node]);
            if (used[node] + take <= cpus[node]) {
                used[node] += take;
                Instant end = random.nextInt(6) == 0 ? null : NOW.plusSeconds(60L * (1 + random.nextInt(120)));
                cluster.running(100 + r, "p", take, 0, end, names[node]);
            }
        }
        List<BackfillJob> queue = new ArrayList<>();
        Map<Long, Integer> perNodeCpus = new HashMap<>();
        // Long queues too: from the 17th reservation search of a call on, searches go through the StartIndex.
        int jobs = random.nextBoolean() ? 1 + random.nextInt(12) : 20 + random.nextInt(40);
        for (int j = 0; j < jobs; j++) {
            int count = 1 + random.nextInt(Math.min(3, nodeCount));
            int perNode = 1 + random.nextInt(8);
            long id = 1000 + j;
            JobOptions options = JobOptions.NONE.withNtasksPerNode(perNode).withTimeLimitSeconds(60L * (1 + random.nextInt(90)));
            String partition = random.nextInt(3) == 0 ? "q" : "p";
            queue.add(new BackfillJob(new ResourceRequest(id, List.of(partition), count, count, count * perNode, 1, 0, options),
                    random.nextInt(4) != 0));
            perNodeCpus.put(id, perNode);
        }
        BackfillOptions options = new BackfillOptions(NOW, random.nextBoolean() ? ReservationMode.EASY : ReservationMode.CONSERVATIVE,
                random.nextBoolean() ? 0 : 600L * (1 + random.nextInt(12)), new long[] {0, 1, 60, 300}[random.nextInt(4)],
                random.nextInt(3) == 0 ? random.nextInt(jobs + 1) : 0);
        return new Pass(cluster.view(), queue, options, perNodeCpus);
    }
}
