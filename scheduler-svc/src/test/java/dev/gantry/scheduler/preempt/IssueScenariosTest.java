package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.NOW;
import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.config.PreemptMode;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.PreemptionPlan.Go;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The issue's documented examples, at the level of this core (select-svc's choice of victims is given). */
class IssueScenariosTest {

    /** preempt.html "A Simple Example": five single-node jobs in active; a 3-node hipri job suspends three. */
    @Test
    void fiveNodeSuspend_theThreeVictimsAreSuspendedWithNoGrace() {
        PreemptSettings s = PreemptSettings.of(ConfigParser.parse(Path.of("t.conf"), """
                NodeName=n[12-16] CPUs=4 RealMemory=8192
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                PartitionName=DEFAULT OverSubscribe=FORCE:1 Nodes=n[12-16]
                PartitionName=active PriorityTier=1 Default=YES
                PartitionName=hipri PriorityTier=2 PreemptMode=SUSPEND,GANG
                """));
        List<JobRecord> running = List.of(
                aJob(485).partition("active").share("n12", 4, 1024).ranFor(27).build(),
                aJob(486).partition("active").share("n13", 4, 1024).ranFor(27).build(),
                aJob(487).partition("active").share("n14", 4, 1024).ranFor(26).build(),
                aJob(488).partition("active").share("n15", 4, 1024).ranFor(29).build(),
                aJob(489).partition("active").share("n16", 4, 1024).ranFor(28).build());
        JobRecord hipri = aJob(490).pending().partition("hipri").build();
        PreemptionPlanner planner = new PreemptionPlanner(s);
        assertEquals(List.of(485L, 486L, 487L, 488L, 489L), planner.candidates(hipri, running, NOW).order(),
                "same tier and size: the older job first (Slurm's job list order), whatever the start times");
        Map<Long, JobRecord> byId = running.stream().collect(Collectors.toMap(JobRecord::id, j -> j));
        List<NodeShare> placement = List.of(new NodeShare("n12", 4, 1024), new NodeShare("n13", 4, 1024),
                new NodeShare("n14", 4, 1024));
        Map<String, NodeMemory> memory = Map.of("n12", new NodeMemory("n12", 8192, 1024),
                "n13", new NodeMemory("n13", 8192, 1024), "n14", new NodeMemory("n14", 8192, 1024));
        assertEquals(new Go(490, List.of(
                        new VictimPlan(485, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, false),
                        new VictimPlan(486, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, false),
                        new VictimPlan(487, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, false)), List.of()),
                planner.plan(hipri, "hipri", placement, List.of(485L, 486L, 487L), byId::get, memory, NOW));
    }

    /** low (requeue), med (suspend), hi (off), tiers 10/20/30, one node, one job each in that order. */
    @Test
    void threeModesOnOneNode_lowIsRequeued_medSuspended_hiRuns() {
        PreemptSettings s = PreemptSettings.of(ConfigParser.parse(Path.of("t.conf"), """
                NodeName=n1 CPUs=4 RealMemory=8192
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                PartitionName=low Nodes=n1 PriorityTier=10 PreemptMode=requeue
                PartitionName=med Nodes=n1 PriorityTier=20 PreemptMode=suspend
                PartitionName=hi Nodes=n1 PriorityTier=30 PreemptMode=off
                """));
        PreemptionPlanner planner = new PreemptionPlanner(s);
        JobRecord low = aJob(1).partition("low").share("n1", 4, 1024).ranFor(60).build();
        JobRecord med = aJob(2).pending().partition("med").build();
        CandidateList forMed = planner.candidates(med, List.of(low), NOW);
        assertEquals(List.of(1L), forMed.order());
        assertEquals(new Go(2, List.of(new VictimPlan(1, PreemptAction.REQUEUE, PreemptAction.REQUEUE, 0, false)),
                List.of()), planner.plan(med, "med", List.of(new NodeShare("n1", 4, 1024)), forMed.order(),
                        id -> low, Map.of(), NOW));

        JobRecord lowRequeued = low.toBuilder().state(JobState.PENDING, NOW).allocation(List.of()).build();
        JobRecord medRunning = aJob(2).partition("med").share("n1", 4, 1024).ranFor(30).build();
        JobRecord hi = aJob(3).pending().partition("hi").build();
        CandidateList forHi = planner.candidates(hi, List.of(lowRequeued, medRunning), NOW);
        assertEquals(List.of(2L), forHi.order(), "the requeued low job holds nothing");
        assertEquals(new Go(3, List.of(new VictimPlan(2, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, false)),
                List.of()), planner.plan(hi, "hi", List.of(new NodeShare("n1", 4, 1024)), forHi.order(),
                        id -> medRunning, Map.of("n1", new NodeMemory("n1", 8192, 1024)), NOW));
        assertEquals(List.of(), planner.candidates(aJob(4).pending().partition("hi").build(),
                List.of(hi.toBuilder().state(JobState.RUNNING, NOW).startTime(NOW)
                        .allocation(List.of(new NodeShare("n1", 4, 1024))).build()), NOW).order(),
                "nothing preempts hi (PreemptMode=off, and no higher tier)");
    }
}
