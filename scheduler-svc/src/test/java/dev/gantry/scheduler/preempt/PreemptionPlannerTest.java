package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.NOW;
import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.config.PreemptMode;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.Escalation.Why;
import dev.gantry.scheduler.preempt.PreemptionPlan.Go;
import dev.gantry.scheduler.preempt.PreemptionPlan.Refused;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Candidates for PlacePreempting, then each victim's final mode, grace and escalations, or a refusal. */
class PreemptionPlannerTest {

    private static final String TIERS = VictimRulesTest.TIERS;
    private final JobRecord preemptor = aJob(1).pending().partition("hi").build();

    @Test
    void candidates_areThePreemptableJobsInVictimOrder_andReportOnlyExemptions() {
        PreemptionPlanner planner = new PreemptionPlanner(settings(TIERS + "PreemptExemptTime=10\n"));
        List<JobRecord> jobs = List.of(
                aJob(10).partition("low").on("n1", "n2").build(),
                aJob(11).partition("med").on("n1").build(),
                aJob(12).partition("low").on("n2").build(),
                aJob(13).partition("hi").on("n1").build(),
                aJob(14).partition("low").on("n1").ranFor(60).build(),
                aJob(15).partition("plain").on("n1", "n2", "n3").build(),
                aJob(16).pending().build(),
                preemptor);
        CandidateList c = planner.candidates(preemptor, jobs, NOW);
        assertEquals(List.of(15L, 12L, 10L, 11L), c.order(), "tier, then nodes: plain(1), low 1 node, low 2, med(20)");
        assertEquals(List.of(14L), c.kept().stream().map(CandidateList.Kept::jobId).toList());
        assertEquals(Verdict.Protection.EXEMPT_TIME, c.kept().get(0).verdict().kind());
        assertEquals(NOW.plusSeconds(540), c.kept().get(0).verdict().until());
        assertEquals(List.of(1, false), List.of(c.reorderCount(), c.strictOrder()));
    }

    @Test
    void candidates_carryReorderCountAndStrictOrderForSelectSvc() {
        CandidateList c = new PreemptionPlanner(settings(TIERS + "PreemptParameters=strict_order,reorder_count=4\n"))
                .candidates(preemptor, List.of(), NOW);
        assertEquals(List.of(4, true), List.of(c.reorderCount(), c.strictOrder()));
    }

    @Test
    void candidates_exclusiveUserAsked_keepsOtherUsersJobs() {
        JobRecord bobs = aJob(1).pending().partition("hi").user("bob").build();
        List<JobRecord> jobs = List.of(aJob(10).on("n1").build(), aJob(11).user("bob").on("n2").build());
        PreemptionPlanner shared = new PreemptionPlanner(settings(TIERS));
        PreemptionPlanner userExclusive = new PreemptionPlanner(settings(TIERS), j -> j.id() == 1);
        assertEquals(List.of(10L, 11L), shared.candidates(bobs, jobs, NOW).order());
        CandidateList c = userExclusive.candidates(bobs, jobs, NOW);
        assertEquals(List.of(11L), c.order());
        assertEquals(Verdict.Protection.EXCLUSIVE_USER, c.kept().get(0).verdict().kind());
    }

    @Test
    void plan_moreVictimsThanPreemptMaxVictims_isRefusedWithTheCount() {
        Map<Long, JobRecord> jobs = new LinkedHashMap<>();
        LongStream.rangeClosed(100, 132).forEach(id -> jobs.put(id, aJob(id).on("n1").build()));
        PreemptionPlanner planner = new PreemptionPlanner(settings(TIERS));
        assertEquals(new Refused(1, Refused.Why.TOO_MANY_VICTIMS, "needs 33 victims, more than PreemptMaxVictims=32"),
                plan(planner, List.copyOf(jobs.keySet()), jobs, Map.of()));
        PreemptionPlanner two = new PreemptionPlanner(settings(TIERS + "PreemptMaxVictims=2\n"));
        assertEquals(new Refused(1, Refused.Why.TOO_MANY_VICTIMS, "needs 3 victims, more than PreemptMaxVictims=2"),
                plan(two, List.of(100L, 101L, 102L), jobs, Map.of()));
        assertEquals(Go.class, plan(two, List.of(100L, 101L), jobs, Map.of()).getClass());
    }

    @Test
    void plan_staleVictims_areRefused() {
        PreemptionPlanner planner = new PreemptionPlanner(settings(TIERS + "PreemptMinActiveTime=300\n"));
        assertEquals(new Refused(1, Refused.Why.VICTIM_PROTECTED, "job 9 is gone"),
                plan(planner, List.of(9L), Map.of(), Map.of()));
        Map<Long, JobRecord> resumed = Map.of(5L, aJob(5).on("n1").resumedAgo(10).build());
        assertEquals(new Refused(1, Refused.Why.VICTIM_PROTECTED, "job 5 active for 10s since it started or resumed, "
                + "less than PreemptMinActiveTime=300s"), plan(planner, List.of(5L), resumed, Map.of()));
    }

    @Test
    void plan_noVictims_goesWithNothingToDo() {
        assertEquals(new Go(1, List.of(), List.of()),
                plan(new PreemptionPlanner(settings(TIERS)), List.of(), Map.of(), Map.of()));
    }

    @Test
    void plan_graceTimeIsTheVictimPartitionsForCancelAndRequeue_neverForSuspend() {
        Map<Long, JobRecord> jobs = Map.of(5L, aJob(5).partition("low").on("n1").build(),
                6L, aJob(6).partition("med").on("n2").build());
        assertEquals(new Go(1, List.of(
                        new VictimPlan(5, PreemptAction.REQUEUE, PreemptAction.REQUEUE, 30, false),
                        new VictimPlan(6, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, false)), List.of()),
                plan(new PreemptionPlanner(settings(TIERS)), List.of(5L, 6L), jobs, Map.of()));
    }

    @Test
    void plan_underQos_graceIsTheVictimQoss_andSuspendInThePreemptorsPartitionTimeSlices() {
        PreemptSettings s = settings("""
                PreemptType=preempt/qos
                PreemptMode=REQUEUE,GANG
                PartitionName=low Nodes=n[1-4] PriorityTier=10 GraceTime=5
                PartitionName=hi Nodes=n[1-4] PriorityTier=30
                QOS=high Priority=100 Preempt=normal,scav,susp
                QOS=scav PreemptMode=cancel GraceTime=90
                QOS=susp PreemptMode=suspend GraceTime=90
                """);
        JobRecord high = aJob(1).pending().partition("hi").qos("high").build();
        Map<Long, JobRecord> jobs = Map.of(5L, aJob(5).partition("low").qos("scav").on("n1").build(),
                6L, aJob(6).partition("low").on("n1").build(),
                7L, aJob(7).partition("low").qos("susp").on("n2").build(),
                8L, aJob(8).partition("hi").qos("susp").on("n3").build());
        PreemptionPlan p = new PreemptionPlanner(s).plan(high, "hi", List.of(), List.of(5L, 6L, 7L, 8L), jobs::get,
                Map.of(), NOW);
        assertEquals(new Go(1, List.of(
                new VictimPlan(5, PreemptAction.CANCEL, PreemptAction.CANCEL, 90, false),
                new VictimPlan(6, PreemptAction.REQUEUE, PreemptAction.REQUEUE, 0, false),
                new VictimPlan(7, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, false),
                new VictimPlan(8, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, true)), List.of()), p);
    }

    @Test
    void plan_notRequeueable_escalatesRequeueToCancel() {
        Map<Long, JobRecord> jobs = Map.of(5L, aJob(5).partition("low").on("n1").noRequeue().build());
        assertEquals(new Go(1, List.of(new VictimPlan(5, PreemptAction.REQUEUE, PreemptAction.CANCEL, 30, false)),
                List.of(new Escalation(5, PreemptAction.REQUEUE, PreemptAction.CANCEL, Why.NOT_REQUEUEABLE,
                        "may not be requeued (--no-requeue, or JobRequeue=0)"))),
                plan(new PreemptionPlanner(settings(TIERS)), List.of(5L), jobs, Map.of()));
    }

    @Test
    void plan_suspendedMemoryThatWouldNotFit_escalatesToRequeue_withThePartitionsGrace() {
        Map<Long, JobRecord> jobs = Map.of(6L, aJob(6).partition("med").share("n1", 2, 4096).build());
        Map<String, NodeMemory> memory = Map.of("n1", new NodeMemory("n1", 8192, 6144));
        PreemptionPlan p = new PreemptionPlanner(settings(TIERS)).plan(preemptor, "hi",
                List.of(new NodeShare("n1", 2, 4096)), List.of(6L), jobs::get, memory, NOW);
        assertEquals(new Go(1, List.of(new VictimPlan(6, PreemptAction.SUSPEND, PreemptAction.REQUEUE, 45, false)),
                List.of(new Escalation(6, PreemptAction.SUSPEND, PreemptAction.REQUEUE, Why.MEMORY,
                        "node n1: 10240 MiB needed with it suspended there, 8192 MiB available"))), p);
    }

    @Test
    void plan_suspendedMemoryThatFits_orIsNotTracked_staysSuspended() {
        Map<Long, JobRecord> jobs = Map.of(6L, aJob(6).partition("med").share("n1", 2, 4096).build());
        Go expected = new Go(1, List.of(new VictimPlan(6, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, false)),
                List.of());
        List<NodeShare> placement = List.of(new NodeShare("n1", 2, 4096));
        for (NodeMemory m : List.of(new NodeMemory("n1", 16384, 6144), new NodeMemory("n1", 0, 6144))) {
            assertEquals(expected, new PreemptionPlanner(settings(TIERS)).plan(preemptor, "hi", placement,
                    List.of(6L), jobs::get, Map.of("n1", m), NOW));
        }
    }

    @Test
    void plan_neitherSuspendableNorRequeueable_escalatesTwice() {
        Map<Long, JobRecord> jobs = Map.of(6L, aJob(6).partition("med").share("n1", 2, 4096).noRequeue().build());
        PreemptionPlan p = new PreemptionPlanner(settings(TIERS)).plan(preemptor, "hi",
                List.of(new NodeShare("n1", 2, 6000)), List.of(6L), jobs::get,
                Map.of("n1", new NodeMemory("n1", 8192, 4096)), NOW);
        Go go = (Go) p;
        assertEquals(PreemptAction.CANCEL, go.victims().get(0).mode());
        assertEquals(List.of(Why.MEMORY, Why.NOT_REQUEUEABLE), go.escalations().stream().map(Escalation::why).toList());
        assertEquals(List.of(PreemptAction.SUSPEND, PreemptAction.REQUEUE),
                go.escalations().stream().map(Escalation::from).toList());
    }

    @Test
    void plan_escalatesOnlyUntilTheMemoryFits_mostPreemptableFirst() {
        Map<Long, JobRecord> jobs = Map.of(6L, aJob(6).partition("med").share("n1", 1, 3000).build(),
                7L, aJob(7).partition("med").share("n1", 1, 3000).build());
        Go go = (Go) new PreemptionPlanner(settings(TIERS)).plan(preemptor, "hi",
                List.of(new NodeShare("n1", 2, 4000)), List.of(6L, 7L), jobs::get,
                Map.of("n1", new NodeMemory("n1", 8192, 6000)), NOW);
        assertEquals(List.of(PreemptAction.REQUEUE, PreemptAction.SUSPEND),
                go.victims().stream().map(VictimPlan::mode).toList());
    }

    @Test
    void plan_preemptorThatDoesNotFitEvenWithEveryVictimGone_isRefused() {
        Map<Long, JobRecord> jobs = Map.of(6L, aJob(6).partition("med").share("n1", 1, 3000).build());
        assertEquals(new Refused(1, Refused.Why.MEMORY, "node n1: 10000 MiB needed, 8192 MiB available even with "
                        + "every victim there requeued or cancelled"),
                new PreemptionPlanner(settings(TIERS)).plan(preemptor, "hi", List.of(new NodeShare("n1", 2, 9000)),
                        List.of(6L), jobs::get, Map.of("n1", new NodeMemory("n1", 8192, 4000)), NOW));
    }

    @Test
    void plan_aVictimThatCannotBeSuspendedAndIsExemptFromRequeue_isRefused() {
        Map<Long, JobRecord> jobs = Map.of(6L, aJob(6).partition("med").share("n1", 2, 4096).ranFor(120).build());
        assertEquals(new Refused(1, Refused.Why.ESCALATION_EXEMPT, "job 6 cannot be suspended (node n1: 10240 MiB "
                        + "needed with it suspended there, 8192 MiB available) and is exempt from REQUEUE and CANCEL: "
                        + "ran 120s of PreemptExemptTime=600s"),
                new PreemptionPlanner(settings(TIERS + "PreemptExemptTime=10\n")).plan(preemptor, "hi",
                        List.of(new NodeShare("n1", 2, 4096)), List.of(6L), jobs::get,
                        Map.of("n1", new NodeMemory("n1", 8192, 6144)), NOW));
    }

    /** How the preemptor's GRES on n1 meet a suspended victim holding one of n1's GPUs. */
    record GpuCase(String name, int nodeGpus, int preemptorGpus, PreemptAction mode, List<Why> escalations) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<GpuCase> gpuCases() {
        return List.of(
                new GpuCase("the preemptor needs only CPUs: the victim is suspended", 1, 0, PreemptAction.SUSPEND,
                        List.of()),
                new GpuCase("the preemptor needs the GPU the victim holds: the victim escalates", 1, 1,
                        PreemptAction.REQUEUE, List.of(Why.GRES)),
                new GpuCase("a second GPU is free for the preemptor: the victim is suspended", 2, 1,
                        PreemptAction.SUSPEND, List.of()),
                new GpuCase("the preemptor needs both GPUs: the victim escalates", 2, 2, PreemptAction.REQUEUE,
                        List.of(Why.GRES)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gpuCases")
    void plan_aSuspendedVictimKeepsItsGpus_andEscalatesWhenThePreemptorNeedsThem(GpuCase c) {
        JobRecord victim = aJob(6).partition("med").build().toBuilder().allocation(List.of(new NodeShare("n1", 2, 0,
                List.of(), List.of(new GresGrant("gpu", "", 1, List.of(0)))))).build();
        List<GresGrant> grant = c.preemptorGpus() == 0 ? List.of()
                : List.of(new GresGrant("gpu", "", c.preemptorGpus(), List.of()));
        Map<String, NodeGres> gres = Map.of("n1", new NodeGres("n1", Map.of("gpu", (long) c.nodeGpus()),
                Map.of("gpu", 1L)));

        Go go = (Go) new PreemptionPlanner(settings(TIERS)).plan(preemptor, "hi",
                List.of(new NodeShare("n1", 2, 0, List.of(), grant)), List.of(6L), Map.of(6L, victim)::get, Map.of(),
                gres, NOW);

        assertEquals(c.mode(), go.victims().get(0).mode());
        assertEquals(c.escalations(), go.escalations().stream().map(Escalation::why).toList());
    }

    @Test
    void plan_aPreemptorWhoseGpusAreNotThereEvenWithEveryVictimGone_isRefused() {
        JobRecord victim = aJob(6).partition("med").build().toBuilder().allocation(List.of(new NodeShare("n1", 2, 0,
                List.of(), List.of(new GresGrant("gpu", "a100", 1, List.of(0)))))).build();
        PreemptionPlan p = new PreemptionPlanner(settings(TIERS)).plan(preemptor, "hi",
                List.of(new NodeShare("n1", 2, 0, List.of(), List.of(new GresGrant("gpu", "a100", 2, List.of())))),
                List.of(6L), Map.of(6L, victim)::get, Map.of(),
                Map.of("n1", new NodeGres("n1", Map.of("gpu:a100", 1L), Map.of("gpu:a100", 1L))), NOW);

        assertEquals(new Refused(1, Refused.Why.GRES, "node n1: 2 gpu:a100 needed, 1 configured even with every "
                + "victim there requeued or cancelled"), p);
    }

    private PreemptionPlan plan(PreemptionPlanner planner, List<Long> victims, Map<Long, JobRecord> jobs,
            Map<String, NodeMemory> memory) {
        return planner.plan(preemptor, "hi", new ArrayList<>(), victims, jobs::get, memory, NOW);
    }
}
