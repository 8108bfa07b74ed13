package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * SUSPEND preemption under PreemptType=preempt/qos within one partition, on a real local cluster: rather than keep the
 * low-QOS job it preempts suspended until it ends, the high-QOS job time-slices with it
 * (https://slurm.schedmd.com/preempt.html: "they will share resources with the Gang scheduler"). One 1-CPU node,
 * SchedulerTimeSlice=2: each job is seen running and suspended in turn, and the suspended one's processes really stop.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QosTimeSliceE2ETest {

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "qosslice", """
                ClusterName=e2e-qosslice
                KillWait=2
                PreemptType=preempt/qos
                PreemptMode=SUSPEND,GANG
                SchedulerTimeSlice=2
                NodeName=q1 CPUs=1 RealMemory=1024
                PartitionName=shared Nodes=q1 Default=YES MaxTime=60 OverSubscribe=FORCE:1 State=UP
                QOS=normal
                QOS=high Priority=10 Preempt=normal
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
        return cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    @Test
    void aHighQosJob_andTheLowQosJobItPreempts_inOnePartition_takeTurns() throws Exception {
        long low = cluster.submit("-q", "normal", "-o", "/dev/null", "--wrap", SuspendPreemptionE2ETest.LIGHT_SPIN);
        cluster.await(low, j -> j.getState() == JobState.JOB_STATE_RUNNING && !j.getCompleting());
        long high = cluster.submit("-q", "high", "-o", "/dev/null", "--wrap", SuspendPreemptionE2ETest.LIGHT_SPIN);
        try {
            // OverSubscribe=FORCE:1 lets no two jobs share the CPU: the high one comes in by preemption
            Path log = cluster.runDir.resolve("logs").resolve("scheduler.log");
            TestCluster.awaitTrue(() -> Files.readString(log).contains("job " + low + " preempted (SUSPEND, time-sliced)"
                    + " for job " + high), "the controller places the high-QOS job over the low one, time-sliced");
            // Each job seen running and suspended, twice over, as the slices turn.
            SliceTurns.awaitTurns(cluster, low, high, 4, Duration.ofSeconds(90));
            SliceTurns.assertSuspendedOneStandsStill(cluster, low, high);
            Job victim = job(low);
            assertEquals(0, victim.getRestartCount(), "time-sliced, not requeued: " + victim);
        } finally {
            assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(low), Long.toString(high)).exit());
        }
    }
}
