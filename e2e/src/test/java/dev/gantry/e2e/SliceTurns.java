package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Watching two jobs that gang-svc time-slices against each other on a real cluster: they take turns (one RUNNING,
 * the other SUSPENDED, then the other way round), and the suspended one's processes really stop.
 */
final class SliceTurns {
    private SliceTurns() {}

    private static Job job(TestCluster cluster, long id) {
        return cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    /**
     * Waits until {@code a} and {@code b} have been seen one running and the other suspended, the roles swapping
     * {@code turns} times; fails after {@code within}.
     */
    static void awaitTurns(TestCluster cluster, long a, long b, int turns, Duration within) throws Exception {
        List<String> seen = new ArrayList<>();
        Instant deadline = Instant.now().plus(within);
        int count = 0;
        JobState lastA = null;
        while (count < turns && Instant.now().isBefore(deadline)) {
            Job ja = job(cluster, a);
            Job jb = job(cluster, b);
            boolean oneEach = (ja.getState() == JobState.JOB_STATE_RUNNING && jb.getState() == JobState.JOB_STATE_SUSPENDED)
                    || (ja.getState() == JobState.JOB_STATE_SUSPENDED && jb.getState() == JobState.JOB_STATE_RUNNING);
            if (oneEach && ja.getState() != lastA) {
                count++;
                lastA = ja.getState();
                seen.add(ja.getState().name() + "/" + jb.getState().name());
            }
            Thread.sleep(100);
        }
        assertTrue(count >= turns, "the jobs did not take turns: " + seen);
    }

    /**
     * Catches one of the two suspended for long enough to watch (the same suspension before and after): its CPU time
     * stands still while the running one's grows.
     */
    static void assertSuspendedOneStandsStill(TestCluster cluster, long a, long b) throws Exception {
        int neverStopped = 0;
        for (int attempt = 0; ; attempt++) {
            if (attempt > 40) {
                fail("never caught a suspension long enough to measure (" + neverStopped
                        + " suspensions ended before their processes were seen stopped)");
            }
            long suspended = job(cluster, a).getState() == JobState.JOB_STATE_SUSPENDED ? a : b;
            long running = suspended == a ? b : a;
            Job before = job(cluster, suspended);
            if (before.getState() != JobState.JOB_STATE_SUSPENDED) {
                Thread.sleep(100);
                continue;
            }
            // The agents freeze the one and thaw the other just after the controller records it: wait for that
            // (no fixed time: on a loaded machine it can take longer than a slice), or try the next suspension.
            if (!awaitStoppedWhileSuspended(cluster, suspended, running, before)) {
                neverStopped++;
                continue;
            }
            // A task counts as stopped (or frozen) just before it leaves the CPU; let its last CPU time be charged.
            Thread.sleep(200);
            long frozen0 = Procs.cpuTicks(cluster, suspended);
            long busy0 = Procs.cpuTicks(cluster, running);
            Thread.sleep(700);
            long frozen1 = Procs.cpuTicks(cluster, suspended);
            long busy1 = Procs.cpuTicks(cluster, running);
            Job after = job(cluster, suspended);
            boolean sameSuspension = after.getState() == JobState.JOB_STATE_SUSPENDED
                    && after.getLastStateChange().equals(before.getLastStateChange());
            if (sameSuspension) {
                assertFalse(Procs.ofJob(cluster, suspended).isEmpty(), "no processes found for job " + suspended);
                assertEquals(frozen0, frozen1, "job " + suspended + " used CPU while suspended");
                assertTrue(busy1 > busy0, "job " + running + " did not run while " + suspended + " was suspended");
                return;
            }
        }
    }

    /**
     * Waits until every process of {@code suspended} is stopped and {@code running}'s are not all stopped, while
     * {@code suspended} stays in the suspension {@code before} saw; false once that suspension is over.
     */
    private static boolean awaitStoppedWhileSuspended(TestCluster cluster, long suspended, long running, Job before)
            throws Exception {
        while (true) {
            if (Procs.allStopped(cluster, suspended) && !Procs.allStopped(cluster, running)) {
                return true;
            }
            Job now = job(cluster, suspended);
            if (now.getState() != JobState.JOB_STATE_SUSPENDED || !now.getLastStateChange().equals(before.getLastStateChange())) {
                return false;
            }
            Thread.sleep(50);
        }
    }
}
