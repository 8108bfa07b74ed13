package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
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

    @Test
    void twoFiveNodeJobs_alternate_andTheSuspendedOnesProcessesReallyStop() throws Exception {
        String spin = "while :; do :; done";
        long a = cluster.submit("-N", "5", "-o", "/dev/null", "--wrap", spin);
        long b = cluster.submit("-N", "5", "-o", "/dev/null", "--wrap", spin);
        try {
            // Each job must be seen running and suspended, twice over, as the slices turn.
            SliceTurns.awaitTurns(cluster, a, b, 4, Duration.ofSeconds(60));
            // While one is suspended its CPU time stands still; the running one's grows.
            SliceTurns.assertSuspendedOneStandsStill(cluster, a, b);
        } finally {
            assertEquals(0, cluster.shell.run(cluster.work, "scancel", Long.toString(a), Long.toString(b)).exit());
        }
    }
}
