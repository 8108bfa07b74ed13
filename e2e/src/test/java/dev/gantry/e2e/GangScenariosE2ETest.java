package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The select/linear examples of Slurm's gang scheduling page (https://slurm.schedmd.com/gang_scheduling.html) on a real
 * local cluster of five 1-CPU nodes n[12-16] with OverSubscribe=FORCE, each checked twice: squeue must show what the
 * page's transcripts show (states and node lists), and the jobs' own counters (five ticks a second) must show that
 * this is what their processes did — a job squeue shows suspended never ticks, one it shows running ticks on.
 * SchedulerTimeSlice is 2 s (Slurm refuses under 5 s; see docs/slurm-differences.md) to keep the test short.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GangScenariosE2ETest {

    static final Duration SLICE = Duration.ofSeconds(2);

    private TestCluster cluster;
    private Counters counters;
    private final List<Long> submitted = new ArrayList<>();

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        cluster = TestCluster.start(tmp, "gangpage", """
                ClusterName=e2e-gangpage
                KillWait=2
                SelectType=select/linear
                SelectTypeParameters=CR_Memory
                PreemptMode=GANG
                SchedulerTimeSlice=2
                NodeName=n[12-16] CPUs=1 RealMemory=1000
                PartitionName=active Nodes=n[12-16] Default=YES MaxTime=60 State=UP OverSubscribe=FORCE
                """);
        counters = new Counters(cluster);
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void cancelAll() throws Exception {
        if (submitted.isEmpty()) {
            return;
        }
        List<String> ids = submitted.stream().map(String::valueOf).toList();
        cluster.shell.run(cluster.work, "scancel", ids.toArray(String[]::new));
        for (long id : submitted) {
            cluster.await(id, j -> j.getState() == JobState.JOB_STATE_CANCELLED && !j.getCompleting());
        }
        submitted.clear();
    }

    private long submit(String... nodes) throws Exception {
        List<String> args = new ArrayList<>(List.of(nodes));
        args.addAll(List.of("--mem=100", "-o", "/dev/null", "--wrap", counters.script()));
        long id = cluster.submit(args.toArray(String[]::new));
        submitted.add(id);
        return id;
    }

    private Job job(long id) {
        return cluster.controller.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    private static boolean is(Job j, JobState state) {
        return j.getState() == state && !j.getCompleting();
    }

    /** Waits until squeue shows exactly {@code expected} for the given jobs (id → "ST NODELIST"). */
    private void awaitSqueue(Map<Long, String> expected) throws Exception {
        TestCluster.awaitTrue(() -> {
            Map<Long, String> rows = counters.squeue();
            return expected.entrySet().stream().allMatch(e -> e.getValue().equals(rows.get(e.getKey())));
        }, "squeue shows " + expected);
    }

    /** "A Simple Example": the second 5-node job is suspended on arrival, and the two then take turns. */
    @Test
    void simpleExample_theNewJobRunsNotOneTickWhileSuspended_andFirstRunsAWholeSliceAfterItArrived() throws Exception {
        long a = submit("-N5");
        awaitSqueue(Map.of(a, "R n[12-16]"));
        TestCluster.awaitTrue(() -> counters.of(a) > 0, "job " + a + " counts");
        long b = submit("-N5");
        Job allocated = cluster.await(b, j -> j.hasStartTime() && j.getStartTime().getSeconds() > 0);
        Instant arrived = Instant.ofEpochSecond(allocated.getStartTime().getSeconds(), allocated.getStartTime().getNanos());

        // Until its first turn, squeue shows the page's transcript, and the suspended job has not run one instruction.
        Instant firstTurn = null;
        int polls = 0;
        while (firstTurn == null) {
            // the counter first, then the state: a job still suspended after the counter was read had not had a turn
            // when it was read (read the other way round, the first turn can come between the two reads)
            long ticks = counters.of(b);
            Job jb = job(b);
            if (is(jb, JobState.JOB_STATE_RUNNING)) {
                firstTurn = Instant.now();
                break;
            }
            assertEquals(JobState.JOB_STATE_SUSPENDED, jb.getState(), "job " + b + " before its first turn");
            assertEquals(0, ticks, "job " + b + " ran while the controller said SUSPENDED");
            if (polls++ % 10 == 0) {
                Map<Long, String> rows = counters.squeue();
                if ("R n[12-16]".equals(rows.get(b))) {
                    firstTurn = Instant.now(); // the swap came between the two reads: this is the first turn
                    break;
                }
                assertEquals("R n[12-16]", rows.get(a), rows.toString());
                assertEquals("S n[12-16]", rows.get(b), rows.toString());
            }
            assertTrue(Duration.between(arrived, Instant.now()).compareTo(SLICE.multipliedBy(4)) < 0, "no turn for " + b);
            Thread.sleep(50);
        }
        // The running job keeps its slice: the first turn comes at the first slice a whole slice after the arrival.
        Duration waited = Duration.between(arrived, firstTurn);
        assertTrue(waited.compareTo(SLICE.minusMillis(100)) >= 0, "job " + b + " had its first turn after " + waited);

        awaitSqueue(Map.of(b, "R n[12-16]", a, "S n[12-16]"));
        TestCluster.awaitTrue(() -> counters.of(b) > 0, "job " + b + " counts in its turn");
        // And they take turns: each is seen running again, and the suspended one's counter stands still.
        SliceTurns.awaitTurns(cluster, a, b, 3, Duration.ofSeconds(30));
        assertCounterStandsStillWhileSuspended(a, b);
        SliceTurns.awaitTurns(cluster, a, b, 2, Duration.ofSeconds(30)); // each has now been suspended two slices or more
        assertSqueueTimeIsTheTimeItRan(a);
        assertSqueueTimeIsTheTimeItRan(b);
    }

    /**
     * squeue's TIME (%M) is the time a job ran, suspensions left out (Slurm: 0:02 for a job that ran 2 s and was then
     * suspended 10 s): it agrees with the job's own counter within a couple of seconds, and is well below the time since
     * it started, half of which it spent suspended.
     */
    private void assertSqueueTimeIsTheTimeItRan(long id) throws Exception {
        String out = cluster.shell.run(cluster.work, "squeue", "-h", "-j", Long.toString(id), "-o", "%M").out().trim();
        String[] mmss = out.split(":");
        long shown = Long.parseLong(mmss[mmss.length - 2]) * 60 + Long.parseLong(mmss[mmss.length - 1]);
        double ran = counters.of(id) / Counters.TICKS_PER_SECOND;
        Job j = job(id);
        long sinceStart = Instant.now().getEpochSecond() - j.getStartTime().getSeconds();
        assertTrue(Math.abs(shown - ran) <= 2.5, "job " + id + ": squeue TIME " + out + " but its counter ran " + ran + " s");
        assertTrue(shown + 3 < sinceStart, "job " + id + ": squeue TIME " + out + " counts its suspensions (started "
                + sinceStart + " s ago)");
    }

    /** "More examples": jobs of 3, 2 and 3 nodes; the 2-node job gets the idle nodes and runs continuously. */
    @Test
    void threeTwoThree_theTwoNodeJobRunsOnTheIdleNodes_continuously_whileTheOthersTakeTurns() throws Exception {
        long j9 = submit("-N3");
        awaitSqueue(Map.of(j9, "R n[12-14]"));
        long j10 = submit("-N2");
        awaitSqueue(Map.of(j9, "R n[12-14]", j10, "R n[15-16]"));
        long j11 = submit("-N3");
        awaitSqueue(Map.of(j9, "R n[12-14]", j10, "R n[15-16]", j11, "S n[12-14]"));
        assertEquals(0, counters.of(j11), "job " + j11 + " ran while suspended");

        Instant from = Instant.now();
        long ticksFrom = counters.of(j10);
        awaitSqueue(Map.of(j11, "R n[12-14]", j10, "R n[15-16]", j9, "S n[12-14]"));
        awaitSqueue(Map.of(j9, "R n[12-14]", j10, "R n[15-16]", j11, "S n[12-14]"));
        double seconds = Duration.between(from, Instant.now()).toMillis() / 1000.0;
        long ticks = counters.of(j10) - ticksFrom;
        // never suspended: it ticked all along (five a second; a second's slack for a loaded machine)
        assertTrue(ticks >= (seconds - 1) * Counters.TICKS_PER_SECOND,
                "job " + j10 + " ticked " + ticks + " times in " + seconds + " s: it was stopped");
    }

    /** "Local backfilling": jobs of 3, 5 and 2 nodes; the 2-node job runs beside the 3-node one at once. */
    @Test
    void localBackfilling_theTwoNodeJobRunsBesideTheThreeNodeOne() throws Exception {
        long j12 = submit("-N3");
        awaitSqueue(Map.of(j12, "R n[12-14]"));
        long j13 = submit("-N5");
        awaitSqueue(Map.of(j12, "R n[12-14]", j13, "S n[12-16]"));
        Job suspended = job(j13); // started suspended: it has not run yet
        assertEquals(0, counters.of(j13), "job " + j13 + " ran while suspended");
        long j14 = submit("-N2");
        awaitSqueue(Map.of(j12, "R n[12-14]", j14, "R n[15-16]", j13, "S n[12-16]"));
        TestCluster.awaitTrue(() -> counters.of(j14) > 0, "job " + j14 + " counts");
        // still in that first suspension (on a loaded machine a time slice may have given it its turn meanwhile)
        if (job(j13).getLastStateChange().equals(suspended.getLastStateChange())) {
            assertEquals(0, counters.of(j13), "job " + j13 + " ran while suspended");
        }
    }

    /** Catches one of two time-sliced jobs suspended for a second: its counter does not move while the other's does. */
    private void assertCounterStandsStillWhileSuspended(long a, long b) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            long suspended = is(job(a), JobState.JOB_STATE_SUSPENDED) ? a : b;
            long running = suspended == a ? b : a;
            Job before = job(suspended);
            if (!is(before, JobState.JOB_STATE_SUSPENDED)) {
                Thread.sleep(100);
                continue;
            }
            Thread.sleep(300); // its last tick before the freeze may land just after the controller recorded it
            long stopped = counters.of(suspended);
            long other = counters.of(running);
            Thread.sleep(1000);
            Job after = job(suspended);
            if (is(after, JobState.JOB_STATE_SUSPENDED) && after.getLastStateChange().equals(before.getLastStateChange())) {
                assertEquals(stopped, counters.of(suspended), "job " + suspended + " ticked while suspended");
                assertTrue(counters.of(running) > other, "job " + running + " did not tick while running");
                return;
            }
        }
        throw new AssertionError("never caught a suspension long enough to watch");
    }
}
