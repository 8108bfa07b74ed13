package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moab's BACKFILLPOLICY PREEMPT on a real local cluster (PreemptType is none): in a BackfillPolicy=PREEMPT partition a
 * low-priority job is backfilled although its hour-long limit overlaps a wide job's reservation; when the job ahead
 * of the wide one ends and only the backfilled job keeps it from starting, that job is requeued and the wide job
 * runs. (The main pass blocks per partition, so the three jobs share one.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackfillPreemptE2ETest {

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "bfpreempt", """
                ClusterName=e2e-bfpreempt
                KillWait=2
                SchedulerType=sched/backfill
                SchedulerParameters=bf_interval=1,bf_resolution=1
                PriorityType=priority/multifactor
                PriorityWeightQOS=1000
                NodeName=b[1-2] CPUs=1 RealMemory=1024
                PartitionName=batch Nodes=b[1-2] Default=YES MaxTime=120 BackfillPolicy=PREEMPT State=UP
                QOS=normal
                QOS=high Priority=10
                Account=research Parent=root Fairshare=1 Users=%s QOS=normal,high
                """.formatted(System.getProperty("user.name")));
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Job job(long id) {
        return cluster.controller.listJobs(ListJobsRequest.newBuilder().addJobIds(id).build()).getJobs(0);
    }

    @Test
    void aPreemptBackfillJob_overlapsAReservation_andIsRequeuedWhenTheReservedJobCouldStart() throws Exception {
        long blocker = cluster.submit("-t", "2", "-o", "/dev/null", "--wrap", "sleep 600");
        cluster.await(blocker, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        long wide = cluster.submit("-N", "2", "-t", "5", "-q", "high", "-o", "/dev/null", "--wrap", "sleep 2");
        cluster.await(wide, j -> j.hasStartTime() && j.getSchedNodeList().equals("b[1-2]"));

        long scavenger = cluster.submit("-t", "60", "-o", "/dev/null", "--wrap", "sleep 600");

        Job low = cluster.await(scavenger, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        assertEquals("b2", low.getNodeList());
        assertEquals(JobState.JOB_STATE_PENDING, job(wide).getState(), "the blocker still holds b1");

        assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(blocker)).exit());

        Job ran = cluster.await(wide, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        assertEquals("b[1-2]", ran.getNodeList());
        Job requeued = job(scavenger);
        assertEquals(1, requeued.getRestartCount(), requeued.toString());
        assertTrue(requeued.hasPreemptTime(), requeued.toString());
        assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(scavenger)).exit());
    }
}
