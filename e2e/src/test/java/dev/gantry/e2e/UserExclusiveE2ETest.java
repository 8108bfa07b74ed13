package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.SubmitJobRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * sbatch --exclusive=user on a real local cluster (https://slurm.schedmd.com/sbatch.html#OPT_exclusive: the allocation
 * "can not share nodes with other running jobs" of other users): another user's job goes to the other node although
 * best fit would put it beside the user-exclusive job, and the same user's next user-exclusive job goes beside it. The
 * tests run as root; a second local user (created if missing) is submitted for through the API, as root may.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UserExclusiveE2ETest {

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "xuser", """
                ClusterName=e2e-xuser
                KillWait=2
                NodeName=u[1-2] CPUs=2 RealMemory=1024
                PartitionName=p Nodes=u[1-2] Default=YES MaxTime=60 State=UP
                """);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void anotherUsersJobStaysOffTheNodesOfAUserExclusiveJob_theSameUsersJobSharesThem() throws Exception {
        long mine = cluster.submit("--exclusive=user", "-n1", "-o", "/dev/null", "--wrap", "sleep 120");
        String node = running(mine).getNodeList();

        LocalUsers.User bob = LocalUsers.ensure("gantry-xu2");
        long bobs = cluster.controller.submitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder().setName("bob")
                .setScript("#!/bin/sh\nsleep 120\n").setWorkDir("/tmp").setStdoutPath("/dev/null")
                .setUser(bob.name()).setUid(bob.uid()).setGid(bob.gid()).putEnvironment("PATH", "/usr/bin:/bin")).build()).getJobId();
        long mineToo = cluster.submit("--exclusive=user", "-n1", "-o", "/dev/null", "--wrap", "sleep 120");

        assertNotEquals(node, running(bobs).getNodeList(), "bob's job must not share " + node);
        assertEquals(node, running(mineToo).getNodeList(), "the same user's jobs share a node; bob's is on the other");
        for (long id : new long[] {mine, bobs, mineToo}) {
            assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(id)).exit());
        }
    }

    private Job running(long id) throws Exception {
        return cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING);
    }
}
