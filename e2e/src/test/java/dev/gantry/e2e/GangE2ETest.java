package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gang scheduling on a real local cluster (SchedulerTimeSlice=2): two 5-node jobs on five 1-CPU nodes with
 * OverSubscribe=FORCE:2 take turns, and the suspended one's processes really stop — its CPU time, read from /proc,
 * does not grow while the controller says it is suspended, and grows again once it runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GangE2ETest {

    private TestCluster cluster;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "gang", """
                ClusterName=e2e-gang
                KillWait=2
                PreemptMode=GANG
                SchedulerTimeSlice=2
                NodeName=g[1-5] CPUs=1 RealMemory=1024
                PartitionName=gang Nodes=g[1-5] Default=YES MaxTime=60 State=UP OverSubscribe=FORCE:2
                """);
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

    /** utime + stime of the job's processes, in clock ticks (from /proc/PID/stat). */
    private static long cpuTicks(long jobId) throws IOException {
        long total = 0;
        for (long pid : Procs.ofJob(jobId)) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                total += Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15: utime, stime
            } catch (IOException gone) {
                // exited meanwhile
            }
        }
        return total;
    }

    @Test
    void twoFiveNodeJobs_alternate_andTheSuspendedOnesProcessesReallyStop() throws Exception {
        String spin = "while :; do :; done";
        long a = cluster.submit("-N", "5", "-o", "/dev/null", "--wrap", spin);
        long b = cluster.submit("-N", "5", "-o", "/dev/null", "--wrap", spin);
        try {
            // Each job must be seen running and suspended, twice over, as the slices turn.
            List<String> seen = new ArrayList<>();
            Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
            int turns = 0;
            JobState lastA = null;
            while (turns < 4 && Instant.now().isBefore(deadline)) {
                Job ja = job(a);
                Job jb = job(b);
                boolean oneEach = (ja.getState() == JobState.JOB_STATE_RUNNING && jb.getState() == JobState.JOB_STATE_SUSPENDED)
                        || (ja.getState() == JobState.JOB_STATE_SUSPENDED && jb.getState() == JobState.JOB_STATE_RUNNING);
                if (oneEach && ja.getState() != lastA) {
                    turns++;
                    lastA = ja.getState();
                    seen.add(ja.getState().name() + "/" + jb.getState().name());
                }
                Thread.sleep(100);
            }
            assertTrue(turns >= 4, "the jobs did not take turns: " + seen);

            // While one is suspended its CPU time stands still; the running one's grows.
            for (int attempt = 0; ; attempt++) {
                if (attempt > 40) {
                    fail("never caught a suspension long enough to measure");
                }
                Job ja = job(a);
                long suspended = ja.getState() == JobState.JOB_STATE_SUSPENDED ? a : b;
                long running = suspended == a ? b : a;
                Job before = job(suspended);
                if (before.getState() != JobState.JOB_STATE_SUSPENDED) {
                    Thread.sleep(100);
                    continue;
                }
                Thread.sleep(300); // the agent freezes it just after the controller records it
                long frozen0 = cpuTicks(suspended);
                long busy0 = cpuTicks(running);
                Thread.sleep(700);
                long frozen1 = cpuTicks(suspended);
                long busy1 = cpuTicks(running);
                Job after = job(suspended);
                boolean sameSuspension = after.getState() == JobState.JOB_STATE_SUSPENDED
                        && after.getLastStateChange().equals(before.getLastStateChange());
                if (sameSuspension) {
                    assertFalse(Procs.ofJob(suspended).isEmpty(), "no processes found for job " + suspended);
                    assertEquals(frozen0, frozen1, "job " + suspended + " used CPU while suspended");
                    assertTrue(busy1 > busy0, "job " + running + " did not run while " + suspended + " was suspended");
                    break;
                }
            }
        } finally {
            assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(a), Long.toString(b)).exit());
        }
    }
}
