package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agent in a real local cluster: a job over its memory ends OUT_OF_MEMORY, CR_Core binds a job to its
 * allocated core, and restarting an agent leaves its running job running to completion. Cgroup-dependent checks
 * hold for whatever containment the agents chose (their log says which).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeAgentE2ETest {

    private TestCluster cluster;
    private Path work;
    private Path runDir;
    private Shell shell;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "agent", """
                ClusterName=agent-e2e
                KillWait=5
                SelectTypeParameters=CR_Core_Memory
                NodeName=a[1-2] CPUs=2 RealMemory=2048
                PartitionName=debug Nodes=a[1-2] Default=YES MaxTime=60 State=UP
                """);
        work = cluster.work;
        runDir = cluster.runDir;
        shell = cluster.shell;
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void jobOverItsMemory_endsOutOfMemory_whereAMemoryCgroupIsWritable() throws Exception {
        String log = Files.readString(runDir.resolve("logs").resolve("agent-a1.log"));
        org.junit.jupiter.api.Assumptions.assumeTrue(log.contains("containment: cgroup") && !log.contains("memory is not limited"),
                "the agents have no memory cgroup here");

        long id = cluster.submit("--mem=32M", "-o", "/dev/null", "--wrap", "x=$(head -c 300000000 /dev/zero | tr '\\0' a); echo survived");

        Job job = cluster.await(id, j -> j.getState().getNumber() >= JobState.JOB_STATE_COMPLETED_VALUE && !j.getCompleting());
        assertEquals(JobState.JOB_STATE_OUT_OF_MEMORY, job.getState(), job.toString());
        Shell.Result show = shell.run(work, "scontrol", "show", "job", Long.toString(id));
        assertTrue(show.out().contains("JobState=OUT_OF_MEMORY") && show.out().contains("Reason=OutOfMemory"), show.out());
    }

    @Test
    void crCoreJob_isBoundToItsCore() throws Exception {
        long id = cluster.submit("-n", "1", "--mem=1M", "-o", work.resolve("cores-%j.out").toString(), "--wrap", "grep Cpus_allowed_list /proc/self/status");

        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        String out = Files.readString(work.resolve("cores-" + id + ".out"));
        assertTrue(out.matches("Cpus_allowed_list:\\t[0-9]+\\n"), "bound to one CPU: " + out);
    }

    @Test
    void restartingAnAgent_leavesItsJobRunning_andTheJobCompletes() throws Exception {
        Path flag = work.resolve("restart-go");
        long id = cluster.submit("--mem=1M", "-o", work.resolve("restart-%j.out").toString(),
                "--wrap", "echo started; while [ ! -e " + flag + " ]; do sleep 0.1; done; echo finished");
        String node = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING).getNodeList();
        awaitFile(work.resolve("restart-" + id + ".out"), "started");

        Shell.Result restart = shell.run(cluster.tmp, "gantry", "restart", "agent-" + node, "--run-dir", runDir.toString());
        assertEquals(0, restart.exit(), restart.toString());
        awaitFile(runDir.resolve("logs").resolve("agent-" + node + ".log"), "job " + id + ": re-adopted");
        assertEquals(JobState.JOB_STATE_RUNNING, cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getState());

        Files.createFile(flag);
        Job done = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        assertEquals(0, done.getExitCode());
        assertTrue(Files.readString(work.resolve("restart-" + id + ".out")).contains("finished"));
    }

    private static void awaitFile(Path file, String text) throws Exception {
        Instant deadline = Instant.now().plus(TestCluster.WAIT);
        while (Instant.now().isBefore(deadline)) {
            if (Files.exists(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(100);
        }
        fail("'" + text + "' never appeared in " + file);
    }
}
