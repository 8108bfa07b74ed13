package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preemption on a real local cluster (preempt/partition_prio, PreemptMode=REQUEUE): a job of the higher-tier
 * partition takes both nodes from two lower-tier jobs. The requeueable one goes back to the queue with one more
 * restart and runs again later; the --no-requeue one cannot be requeued, so its mode escalates to CANCEL and it ends
 * PREEMPTED.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PreemptionE2ETest {

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "preempt", """
                ClusterName=e2e-preempt
                KillWait=2
                PreemptType=preempt/partition_prio
                PreemptMode=REQUEUE
                NodeName=p[1-2] CPUs=1 RealMemory=1024
                PartitionName=low Nodes=p[1-2] Default=YES PriorityTier=1 MaxTime=60 State=UP
                PartitionName=high Nodes=p[1-2] PriorityTier=10 MaxTime=60 State=UP
                """);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aHigherTierJob_requeuesOneVictim_andCancelsTheOneThatCannotBeRequeued() throws Exception {
        long requeueable = cluster.submit("-p", "low", "-o", "/dev/null", "--wrap", "sleep 300");
        long noRequeue = cluster.submit("-p", "low", "--no-requeue", "-o", "/dev/null", "--wrap", "sleep 300");
        cluster.await(requeueable, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        cluster.await(noRequeue, j -> j.getState() == JobState.JOB_STATE_RUNNING);

        long preemptor = cluster.submit("-p", "high", "-N", "2", "-o", "/dev/null", "--wrap", "sleep 3");

        Job cancelled = cluster.await(noRequeue, j -> j.getState() == JobState.JOB_STATE_PREEMPTED && !j.getCompleting());
        assertTrue(cancelled.getReason().contains("REQUEUE escalated to CANCEL"), cancelled.getReason());
        Job high = cluster.await(preemptor, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        assertEquals("p[1-2]", high.getNodeList());
        // Requeued once, same id, and running again once the preemptor is done: held out of the passes while the
        // preemptor still waited for the other victim, it was not started on its freed node only to be preempted again.
        Job again = cluster.await(requeueable, j -> j.getRestartCount() == 1 && j.getState() == JobState.JOB_STATE_RUNNING);
        assertTrue(again.getStartTime().getSeconds() >= high.getEndTime().getSeconds() - 1, again.toString());
        assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(requeueable)).exit());
    }
}
