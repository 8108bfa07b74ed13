package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.NOW;
import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.PreemptionPlan.Go;
import dev.gantry.scheduler.preempt.PreemptionPlan.Refused;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Invariants over random victims and node memory (seeded, so every failure reproduces): a plan that goes never
 * over-commits a node's memory; modes only rise SUSPEND → REQUEUE → CANCEL and only for the documented reasons; a
 * memory refusal is only given when even every victim gone would not make room; the candidate order does not depend
 * on the order jobs are listed in.
 */
class PreemptionPlanPropertiesTest {

    private static final int CASES = 300;
    private static final PreemptSettings SETTINGS = settings(VictimRulesTest.TIERS);
    private static final List<String> NODES = List.of("n1", "n2", "n3");
    /** Escalation's direction (Moab): each step is more drastic. */
    private static final List<PreemptAction> RISING = List.of(PreemptAction.SUSPEND, PreemptAction.REQUEUE,
            PreemptAction.CANCEL);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void plans_neverOvercommitMemory_andEscalateOnlyAsDocumented(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PreemptionPlanner planner = new PreemptionPlanner(SETTINGS);
        JobRecord preemptor = aJob(1).pending().partition("hi").build();
        int goes = 0;
        int refusals = 0;
        for (int c = 0; c < CASES; c++) {
            Map<Long, JobRecord> victims = new LinkedHashMap<>();
            int count = 1 + r.nextInt(5);
            for (long id = 10; id < 10 + count; id++) {
                RunningJobs.Builder b = aJob(id).partition(r.nextBoolean() ? "med" : "low");
                for (String n : NODES) {
                    if (r.nextInt(3) == 0) {
                        b.share(n, 1, 512L * r.nextInt(9));
                    }
                }
                if (r.nextInt(4) == 0) {
                    b.noRequeue();
                }
                if (!b.build().allocation().isEmpty()) {
                    victims.put(id, b.build());
                }
            }
            Map<String, NodeMemory> memory = new LinkedHashMap<>();
            List<NodeShare> placement = new ArrayList<>();
            for (String n : NODES) {
                long held = 512L * r.nextInt(6) + victims.values().stream().mapToLong(v -> memoryOn(v, n)).sum();
                memory.put(n, new NodeMemory(n, r.nextInt(5) == 0 ? 0 : 1024L * (4 + r.nextInt(9)), held));
                if (r.nextBoolean()) {
                    placement.add(new NodeShare(n, 1, 512L * r.nextInt(12)));
                }
            }
            List<Long> ids = List.copyOf(victims.keySet());
            PreemptionPlan plan = planner.plan(preemptor, "hi", placement, ids, victims::get, memory, NOW);
            if (plan instanceof Go go) {
                goes++;
                assertEquals(ids, go.victims().stream().map(VictimPlan::jobId).toList());
                for (NodeShare s : placement) {
                    NodeMemory m = memory.get(s.node());
                    long leaving = go.victims().stream().filter(v -> v.mode() != PreemptAction.SUSPEND)
                            .mapToLong(v -> memoryOn(victims.get(v.jobId()), s.node())).sum();
                    assertTrue(m.capacityMb() == 0 || m.heldMb() - leaving + s.memoryMb() <= m.capacityMb(),
                            "seed " + seed + " case " + c + ": " + s.node() + " over-committed: " + go);
                }
                for (VictimPlan v : go.victims()) {
                    JobRecord job = victims.get(v.jobId());
                    assertTrue(RISING.indexOf(v.mode()) >= RISING.indexOf(v.configured()), "modes only rise: " + v);
                    assertEquals(v.mode() == PreemptAction.REQUEUE && !job.controls().requeue(), false,
                            "a job that may not be requeued is never requeued: " + v);
                    assertEquals(v.mode() == PreemptAction.SUSPEND ? 0 : SETTINGS.graceOf(job), v.graceSeconds());
                }
                for (Escalation e : go.escalations()) {
                    assertEquals(e.from() == PreemptAction.SUSPEND ? Escalation.Why.MEMORY
                            : Escalation.Why.NOT_REQUEUEABLE, e.why(), e.toString());
                    assertEquals(RISING.indexOf(e.from()) + 1, RISING.indexOf(e.to()), "one step at a time: " + e);
                }
            } else {
                Refused no = (Refused) plan;
                assertEquals(Refused.Why.MEMORY, no.why(), no.reason());
                refusals++;
                String node = no.reason().substring(5, no.reason().indexOf(':'));
                NodeMemory m = memory.get(node);
                long all = victims.values().stream().mapToLong(v -> memoryOn(v, node)).sum();
                long wanted = placement.stream().filter(s -> s.node().equals(node)).mapToLong(NodeShare::memoryMb).sum();
                assertTrue(m.heldMb() - all + wanted > m.capacityMb(), "refused though it fits: " + no);
            }
        }
        assertTrue(goes > CASES / 4 && refusals > 0, "the cases cover both outcomes: " + goes + " go, " + refusals);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void candidateOrder_doesNotDependOnTheOrderJobsAreListedIn(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PreemptionPlanner planner = new PreemptionPlanner(SETTINGS);
        JobRecord preemptor = aJob(1).pending().partition("hi").build();
        for (int c = 0; c < CASES; c++) {
            List<JobRecord> jobs = new ArrayList<>();
            for (long id = 10; id < 20; id++) {
                RunningJobs.Builder b = aJob(id).partition(List.of("low", "med", "plain").get(r.nextInt(3)))
                        .ranFor(60L * r.nextInt(5) + 600);
                for (int n = 0; n <= r.nextInt(3); n++) {
                    b.share(NODES.get(n), 1 + r.nextInt(2), 0);
                }
                jobs.add(b.build());
            }
            List<Long> first = planner.candidates(preemptor, jobs, NOW).order();
            Collections.shuffle(jobs, new Random(r.nextLong()));
            assertEquals(first, planner.candidates(preemptor, jobs, NOW).order());
            assertEquals(10, first.size());
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void thePoolsOrderIsVictimOrder_andTheQuickFilterDropsNoPreemptableJob(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (PreemptSettings s : List.of(SETTINGS, settings(VictimRulesTest.QOS))) {
            PreemptionPlanner planner = new PreemptionPlanner(s);
            VictimRules rules = new VictimRules(s);
            List<String> partitions = List.copyOf(s.partitions().keySet());
            List<String> qos = List.copyOf(s.qos().keySet());
            for (int c = 0; c < CASES / 3; c++) {
                List<JobRecord> jobs = new ArrayList<>();
                for (long id = 10; id < 30; id++) {
                    RunningJobs.Builder b = aJob(id).partition(partitions.get(r.nextInt(partitions.size())))
                            .qos(qos.get(r.nextInt(qos.size()))).priority(r.nextInt(50)).ranFor(r.nextInt(7200))
                            .user(r.nextBoolean() ? "alice" : "bob");
                    for (int n = 0; n <= r.nextInt(3); n++) {
                        b.share(NODES.get(r.nextInt(NODES.size())), 1 + r.nextInt(2), 0);
                    }
                    jobs.add(r.nextInt(8) == 0 ? b.suspendedFor(r.nextInt(100)).build() : b.build());
                }
                List<JobRecord> sorted = new ArrayList<>(jobs);
                sorted.sort(VictimOrder.of(s));
                assertEquals(sorted.stream().map(JobRecord::id).toList(),
                        planner.pool(jobs).jobs().stream().map(JobRecord::id).toList());
                JobRecord p = aJob(1).pending().partition(partitions.get(r.nextInt(partitions.size())))
                        .qos(qos.get(r.nextInt(qos.size()))).priority(r.nextInt(50)).build();
                Contender pc = Contender.of(p, s, false);
                List<Long> judged = sorted.stream()
                        .filter(j -> rules.judge(pc, Contender.of(j, s, false), NOW) instanceof Verdict.Preemptable)
                        .map(JobRecord::id).toList();
                assertEquals(judged, planner.candidates(p, jobs, NOW).order());
            }
        }
    }

    private static long memoryOn(JobRecord job, String node) {
        return job.allocation().stream().filter(s -> s.node().equals(node)).mapToLong(NodeShare::memoryMb).sum();
    }
}
