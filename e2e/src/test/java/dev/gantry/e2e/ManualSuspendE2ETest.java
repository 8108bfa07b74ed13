package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * scontrol suspend and resume on a real local cluster (the tests run as root, an administrator): the suspended job's
 * processes stop on its node, squeue shows it S, its CPUs go to another job at once, resume is refused while that job
 * holds them and works once it has ended, and the processes run again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManualSuspendE2ETest {

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "suspend", """
                ClusterName=e2e-suspend
                KillWait=2
                NodeName=s1 CPUs=2 RealMemory=1024
                PartitionName=p Nodes=s1 Default=YES MaxTime=60 State=UP
                """);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Shell.Result scontrol(String... args) throws Exception {
        return cluster.shell.run(cluster.work, "scontrol", args);
    }

    private List<Long> processes(long jobId) throws Exception {
        return Procs.ofJob(cluster, jobId);
    }

    @Test
    void suspendReleasesTheCpus_andResumeWaitsUntilTheyAreFree() throws Exception {
        long a = cluster.submit("-c", "2", "-o", "/dev/null", "--wrap", "sleep 300");
        cluster.await(a, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        TestCluster.awaitTrue(() -> !processes(a).isEmpty(), "job " + a + "'s processes run");

        Shell.Result suspend = scontrol("suspend", Long.toString(a));
        assertEquals(0, suspend.exit(), suspend.toString());
        cluster.await(a, j -> j.getState() == JobState.JOB_STATE_SUSPENDED && j.getAdminSuspended());
        long suspendedAt = System.nanoTime();
        TestCluster.awaitTrue(() -> Procs.allStopped(processes(a)), "job " + a + "'s processes are stopped");
        assertEquals("S", cluster.shell.run(cluster.work, "squeue", "-h", "-j", Long.toString(a), "-o", "%t").out().trim());

        // the node's two CPUs are free for another job while a is suspended
        long b = cluster.submit("-c", "2", "-o", "/dev/null", "--wrap", "sleep 300");
        cluster.await(b, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        Shell.Result busy = scontrol("resume", Long.toString(a));
        assertEquals(1, busy.exit(), busy.toString());
        assertEquals("Requested nodes are busy for job " + a, busy.err().trim());

        assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(b)).exit());
        cluster.await(b, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
        // suspended time is kept in whole seconds (Slurm's SuspendTime): let at least two pass, or on a quick machine
        // the suspension can end before its first second and the check below has nothing to see
        long waitMs = 2000 - (System.nanoTime() - suspendedAt) / 1_000_000;
        if (waitMs > 0) {
            Thread.sleep(waitMs);
        }
        Shell.Result resume = scontrol("resume", Long.toString(a));
        assertEquals(0, resume.exit(), resume.toString());
        cluster.await(a, j -> j.getState() == JobState.JOB_STATE_RUNNING && j.getSuspendSeconds() > 0);
        TestCluster.awaitTrue(() -> !processes(a).isEmpty() && !Procs.allStopped(processes(a)), "job " + a + " runs again");
        assertTrue(scontrol("show", "job", Long.toString(a)).out().contains("JobState=RUNNING"));
        assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(a)).exit());
    }
}
