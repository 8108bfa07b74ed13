package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.PreemptMode;
import dev.gantry.scheduler.model.JobRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order candidates go to select-svc in, most preemptable first. */
class VictimOrderTest {

    private static final String QOS = """
            PreemptType=preempt/qos
            PreemptMode=REQUEUE
            PartitionName=low Nodes=n[1-4] PriorityTier=10
            PartitionName=hi Nodes=n[1-4] PriorityTier=30
            QOS=top Priority=100 Preempt=normal,mid,big
            QOS=mid Priority=20
            QOS=big Priority=50
            """;

    @Test
    void partitionPrio_lowerTierFirst_thenFewerNodes() {
        assertEquals(List.of(3L, 2L, 1L, 4L), sorted(VictimRulesTest.TIERS,
                aJob(1).partition("low").on("n1", "n2").build(),
                aJob(2).partition("low").on("n1").build(),
                aJob(3).partition("plain").on("n1", "n2", "n3").build(),
                aJob(4).partition("med").on("n1").build()));
    }

    @Test
    void qos_lowerQosPriorityFirst_thenFewerNodes_thenTheOlderJob_whateverItsTier() {
        assertEquals(List.of(1L, 2L, 3L, 5L, 4L), sorted(QOS,
                aJob(1).qos("normal").on("n1", "n2").build(),
                aJob(2).qos("mid").partition("hi").on("n1").build(),
                aJob(3).qos("mid").partition("low").on("n1").build(),
                aJob(4).qos("big").on("n1", "n2").build(),
                aJob(5).qos("big").on("n3").build()));
    }

    @Test
    void qos_prioritiesFrom65535Up_rankAlike_asSlurmKeepsSixteenBits() {
        assertEquals(List.of(1L, 2L), sorted(QOS + "QOS=huge Priority=70000\nQOS=max Priority=65535\n",
                aJob(1).qos("huge").on("n1").build(),
                aJob(2).qos("max").on("n1").build()));
    }

    /** Slurm keeps job list order (creation order) among equal keys: neither CPUs nor start time break the tie. */
    @Test
    void ties_theOlderJobFirst_whateverItsCpusAndStart() {
        assertEquals(List.of(1L, 2L, 3L, 4L), sorted(VictimRulesTest.TIERS,
                aJob(1).share("n1", 4, 0).ranFor(100).build(),
                aJob(2).share("n1", 1, 0).ranFor(100).build(),
                aJob(3).share("n1", 2, 0).ranFor(500).build(),
                aJob(4).share("n1", 2, 0).ranFor(10).build()));
    }

    /** preempt.html "A Simple Example": 490 suspends 485, 486 and 487 although 487 started last. */
    @Test
    void preemptHtmlSimpleExample_theOldestOfFiveEqualJobsFirst() {
        assertEquals(List.of(485L, 486L, 487L, 488L, 489L), sorted(VictimRulesTest.TIERS,
                aJob(485).partition("low").on("n1").ranFor(27).build(),
                aJob(486).partition("low").on("n1").ranFor(27).build(),
                aJob(487).partition("low").on("n1").ranFor(26).build(),
                aJob(488).partition("low").on("n2").ranFor(29).build(),
                aJob(489).partition("low").on("n2").ranFor(28).build()));
    }

    @Test
    void youngestFirst_latestStartFirst_whateverThePriority() {
        assertEquals(List.of(2L, 3L, 1L), sorted(QOS + "PreemptParameters=youngest_first\n",
                aJob(1).qos("normal").on("n1").ranFor(900).build(),
                aJob(2).qos("big").on("n1", "n2").ranFor(60).build(),
                aJob(3).qos("mid").on("n1").ranFor(300).build()));
    }

    @Test
    void youngestFirst_equalStarts_theLaterSubmissionFirst() {
        for (String option : List.of("PreemptParameters=youngest_first\n", "SchedulerParameters=preempt_youngest_first\n")) {
            assertEquals(List.of(5L, 4L, 3L, 2L, 1L), sorted(VictimRulesTest.TIERS + option,
                    aJob(1).partition("low").on("n1").ranFor(30).build(),
                    aJob(2).partition("low").on("n1").ranFor(30).build(),
                    aJob(3).partition("low").on("n1").ranFor(30).build(),
                    aJob(4).partition("low").on("n2").ranFor(30).build(),
                    aJob(5).partition("low").on("n2").ranFor(30).build()), option);
        }
    }

    private static List<Long> sorted(String config, JobRecord... jobs) {
        List<JobRecord> list = new ArrayList<>(List.of(jobs));
        Collections.reverse(list);
        list.sort(VictimOrder.of(settings(config)));
        return list.stream().map(JobRecord::id).toList();
    }

}
