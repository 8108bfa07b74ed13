package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scheduling end to end on a real local cluster, through the Slurm commands: job arrays, dependencies, holds,
 * accounts and QOS at submit, and the backfill pass starting a short job ahead of a blocked wide one without
 * delaying it (while a long one waits).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchedulingE2ETest {

    private TestCluster cluster;
    private Shell shell;
    private Path work;
    private final String user = System.getProperty("user.name");

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "sched", """
                ClusterName=e2e-sched
                KillWait=2
                SchedulerType=sched/backfill
                SchedulerParameters=bf_interval=1,bf_resolution=1
                PriorityType=priority/multifactor
                PriorityWeightQOS=1000
                NodeName=n[1-2] CPUs=1 RealMemory=1024
                NodeName=w[1-2] CPUs=1 RealMemory=1024
                PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
                PartitionName=wide Nodes=w[1-2] MaxTime=60 State=UP
                QOS=normal
                QOS=high Priority=10
                Account=research Parent=root Fairshare=1 Users=%s QOS=normal,high
                """.formatted(System.getProperty("user.name")));
        shell = cluster.shell;
        work = cluster.work;
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Job done(long id) throws Exception {
        return cluster.await(id, j -> j.getState().getNumber() >= JobState.JOB_STATE_COMPLETED_VALUE && !j.getCompleting());
    }

    @Test
    void anArray_runsEveryTask_withItsIndexInTheEnvironmentAndTheOutputName() throws Exception {
        long id = cluster.submit("--array=0-3%2", "-o", work.resolve("arr-%A_%a.out").toString(),
                "--wrap", "echo task=$SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_JOB_ID count=$SLURM_ARRAY_TASK_COUNT");
        for (int i = 0; i < 4; i++) {
            Job task = done(id + i);
            assertEquals(JobState.JOB_STATE_COMPLETED, task.getState(), task.toString());
            assertEquals(id, task.getArrayJobId());
            assertEquals("task=" + i + " of " + id + " count=4",
                    Files.readString(work.resolve("arr-" + id + "_" + i + ".out")).trim());
        }
    }

    @Test
    void afterok_startsOnlyOnceItsJobCompleted_andAFailedOneNeverSatisfiesIt() throws Exception {
        long first = cluster.submit("-o", "/dev/null", "--wrap", "sleep 2");
        long second = cluster.submit("-d", "afterok:" + first, "-o", "/dev/null", "--wrap", "true");
        long failing = cluster.submit("-o", "/dev/null", "--wrap", "exit 3");
        long never = cluster.submit("-d", "afterok:" + failing, "-o", "/dev/null", "--wrap", "true");
        Job a = done(first);
        Job b = done(second);
        assertEquals(JobState.JOB_STATE_COMPLETED, b.getState());
        assertFalse(b.getStartTime().getSeconds() < a.getEndTime().getSeconds(), "second started before first ended");
        cluster.await(never, j -> j.getReason().equals("DependencyNeverSatisfied"));
        Shell.Result q = shell.run(work, "squeue", "-j", Long.toString(never), "-h", "-o", "%i %T %r");
        assertEquals(never + " PENDING DependencyNeverSatisfied", q.out().trim(), q.toString());
        assertEquals(0, shell.run(work, "scancel", Long.toString(never)).exit());
    }

    @Test
    void aHeldJob_waitsUntilReleased() throws Exception {
        long id = cluster.submit("-H", "-o", "/dev/null", "--wrap", "true");
        cluster.await(id, j -> j.getReason().equals("JobHeldUser"));
        Shell.Result release = shell.run(work, "scontrol", "release", Long.toString(id));
        assertEquals(0, release.exit(), release.toString());
        assertEquals(JobState.JOB_STATE_COMPLETED, done(id).getState());
    }

    @Test
    void anUnknownQosOrAnotherAccount_isRefusedAtSubmit() throws Exception {
        Shell.Result qos = shell.run(work, "sbatch", "-q", "gold", "--wrap", "true");
        assertEquals(1, qos.exit(), qos.toString());
        assertTrue(qos.err().contains("Invalid qos specification"), qos.err());
        Shell.Result acct = shell.run(work, "sbatch", "-A", "nosuch", "--wrap", "true");
        assertEquals(1, acct.exit(), acct.toString());
        assertTrue(acct.err().contains("Invalid account"), acct.err());
    }

    @Test
    void backfill_startsAShortJobAheadOfABlockedWideOne_butNotALongOne() throws Exception {
        long blocker = cluster.submit("-p", "wide", "-t", "10", "-o", "/dev/null", "--wrap", "sleep 600");
        cluster.await(blocker, j -> j.getState() == JobState.JOB_STATE_RUNNING);
        long wideJob = cluster.submit("-p", "wide", "-N", "2", "-t", "5", "-q", "high", "-o", "/dev/null", "--wrap", "true");
        long shortJob = cluster.submit("-p", "wide", "-t", "1", "-o", "/dev/null", "--wrap", "sleep 1");
        long longJob = cluster.submit("-p", "wide", "-t", "30", "-o", "/dev/null", "--wrap", "true");
        Job shortDone = done(shortJob);
        assertEquals(JobState.JOB_STATE_COMPLETED, shortDone.getState(), shortDone.toString());
        Job wide = cluster.await(wideJob, j -> j.hasStartTime() && j.getSchedNodeList().equals("w[1-2]"));
        assertEquals(JobState.JOB_STATE_PENDING, wide.getState());
        // the wide job's expected start is when the blocker's 10 minutes are up, not later
        Job running = cluster.controller.listJobs(ListJobsRequest.newBuilder().addJobIds(blocker).build()).getJobs(0);
        assertTrue(wide.getStartTime().getSeconds() <= running.getEndTime().getSeconds() + 1, wide + " / " + running);
        Job waiting = cluster.controller.listJobs(ListJobsRequest.newBuilder().addJobIds(longJob).build()).getJobs(0);
        assertEquals(JobState.JOB_STATE_PENDING, waiting.getState(), "the 30-minute job would delay the wide one");
        Shell.Result start = shell.run(work, "squeue", "--start", "-j", Long.toString(wideJob));
        assertEquals(0, start.exit(), start.toString());
        assertTrue(start.out().contains("w[1-2]"), start.out());
        assertEquals(0, shell.run(work, "scancel", Long.toString(blocker), Long.toString(wideJob), Long.toString(longJob)).exit());
    }
}
