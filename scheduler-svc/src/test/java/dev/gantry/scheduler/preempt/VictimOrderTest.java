package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static dev.gantry.scheduler.preempt.RunningJobs.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
    void qos_lowerQosPriorityFirst_thenFewerNodes_thenTheLowerTier() {
        assertEquals(List.of(1L, 2L, 3L, 5L, 4L), sorted(QOS,
                aJob(1).qos("normal").on("n1", "n2").build(),
                aJob(2).qos("mid").partition("low").on("n1").build(),
                aJob(3).qos("mid").partition("hi").on("n1").build(),
                aJob(4).qos("big").on("n1", "n2").build(),
                aJob(5).qos("big").on("n3").build()));
    }

    @Test
    void ties_fewerCpusFirst_thenTheLaterStart_thenTheHigherJobId() {
        assertEquals(List.of(1L, 3L, 4L, 2L), sorted(VictimRulesTest.TIERS,
                aJob(1).share("n1", 1, 0).ranFor(100).build(),
                aJob(2).share("n1", 4, 0).ranFor(100).build(),
                aJob(3).share("n1", 2, 0).ranFor(100).build(),
                aJob(4).share("n1", 2, 0).ranFor(500).build()));
        assertEquals(List.of(8L, 7L), sorted(VictimRulesTest.TIERS, aJob(7).on("n1").build(), aJob(8).on("n1").build()));
    }

    @Test
    void youngestFirst_latestStartFirst_whateverThePriority() {
        assertEquals(List.of(2L, 3L, 1L), sorted(QOS + "PreemptParameters=youngest_first\n",
                aJob(1).qos("normal").on("n1").ranFor(900).build(),
                aJob(2).qos("big").on("n1", "n2").ranFor(60).build(),
                aJob(3).qos("mid").on("n1").ranFor(300).build()));
    }

    private static List<Long> sorted(String config, JobRecord... jobs) {
        List<JobRecord> list = new ArrayList<>(List.of(jobs));
        Collections.reverse(list);
        list.sort(VictimOrder.of(settings(config)));
        return list.stream().map(JobRecord::id).toList();
    }

}
