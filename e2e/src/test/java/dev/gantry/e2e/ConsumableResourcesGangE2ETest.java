package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Consumable Resource Examples" of Slurm's gang scheduling page (https://slurm.schedmd.com/gang_scheduling.html): six
 * {@code -n10 -N5} jobs on five nodes of eight CPUs (2:4:1), under CR_Core_Memory and under CR_CPU_Memory, on real local
 * clusters with jobs that count. Under CR_Core_Memory the last two jobs are allocated the first two's cores, so two jobs
 * never stop and the other four alternate in pairs; under CR_CPU_Memory CPUs are only counted, and all six take turns.
 */
class ConsumableResourcesGangE2ETest {

    static String config(String params) {
        return """
                ClusterName=e2e-cr
                KillWait=2
                SelectType=select/cons_tres
                SelectTypeParameters=%s
                PreemptMode=GANG
                SchedulerTimeSlice=2
                NodeName=n[12-16] CPUs=8 Sockets=2 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=4000
                PartitionName=active Nodes=n[12-16] Default=YES MaxTime=60 State=UP OverSubscribe=FORCE
                """.formatted(params);
    }

    /** Submits six -n10 -N5 counting jobs and waits until squeue shows four running and the last two suspended. */
    static List<Long> sixJobs(TestCluster cluster, Counters counters) throws Exception {
        List<Long> jobs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            jobs.add(cluster.submit("-n10", "-N5", "--mem-per-cpu=100", "-o", "/dev/null", "--wrap", counters.script()));
            long id = jobs.getLast();
            cluster.await(id, j -> j.getState() == JobState.JOB_STATE_RUNNING || j.getState() == JobState.JOB_STATE_SUSPENDED);
        }
        long[] lastTwo = new long[2];
        TestCluster.awaitTrue(() -> {
            // their counters before squeue: still suspended after that read, they had not had a turn when it was read
            lastTwo[0] = counters.of(jobs.get(4));
            lastTwo[1] = counters.of(jobs.get(5));
            Map<Long, String> rows = counters.squeue();
            for (int i = 0; i < 6; i++) {
                if (!(i < 4 ? "R n[12-16]" : "S n[12-16]").equals(rows.get(jobs.get(i)))) {
                    return false;
                }
            }
            return true;
        }, "squeue shows the first four running and the last two suspended, on n[12-16]");
        for (int i = 0; i < 2; i++) {
            assertEquals(0, lastTwo[i], "job " + jobs.get(4 + i) + " ran while suspended");
        }
        return jobs;
    }

    /**
     * What {@link #watch} saw of each job: whether squeue ever showed it suspended, and the longest time its counter did
     * not move (a suspension lasts a whole time slice, 2 s; a running job ticks every 0.2 s).
     */
    record Watched(Map<Long, Boolean> everSuspended, Map<Long, Duration> longestStill) {}

    /** Watches the jobs for {@code within}, reading squeue and their counters every 0.2 s. */
    static Watched watch(Counters counters, List<Long> jobs, Duration within) throws Exception {
        Map<Long, Boolean> everSuspended = new HashMap<>();
        Map<Long, Duration> longestStill = new HashMap<>();
        Map<Long, Long> lastTick = new HashMap<>();
        Map<Long, Instant> tickedAt = new HashMap<>();
        Instant start = Instant.now();
        for (long id : jobs) {
            everSuspended.put(id, false);
            longestStill.put(id, Duration.ZERO);
            lastTick.put(id, counters.of(id));
            tickedAt.put(id, start);
        }
        Instant end = start.plus(within);
        while (Instant.now().isBefore(end)) {
            Map<Long, String> rows = counters.squeue();
            Instant now = Instant.now();
            for (long id : jobs) {
                if (rows.getOrDefault(id, "").startsWith("S ")) {
                    everSuspended.put(id, true);
                }
                long tick = counters.of(id);
                if (tick != lastTick.get(id)) {
                    lastTick.put(id, tick);
                    tickedAt.put(id, now);
                }
                Duration still = Duration.between(tickedAt.get(id), now);
                if (still.compareTo(longestStill.get(id)) > 0) {
                    longestStill.put(id, still);
                }
            }
            Thread.sleep(200);
        }
        return new Watched(everSuspended, longestStill);
    }

    static void cancel(TestCluster cluster, List<Long> jobs) throws Exception {
        cluster.shell.run(cluster.work, "scancel", jobs.stream().map(String::valueOf).toArray(String[]::new));
    }

    /** One cluster per SelectTypeParameters value, started for its nested class. */
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class OnCluster {
        TestCluster cluster;
        Counters counters;

        abstract String selectTypeParameters();

        @BeforeAll
        void up(@TempDir Path tmp) throws Exception {
            cluster = TestCluster.start(tmp, "cr", config(selectTypeParameters()));
            counters = new Counters(cluster);
        }

        @AfterAll
        void down() throws Exception {
            cluster.close();
        }

        /** A failure's evidence: the services' logs, kept in target/ (the cluster's own directory goes with it). */
        void keepLogs() throws java.io.IOException {
            Path dir = Path.of("target", "cr-gang-logs-" + selectTypeParameters());
            cluster.copyLogs(dir);
            System.err.println("services' logs kept in " + dir.toAbsolutePath());
        }
    }

    @Nested
    class CrCoreMemory extends OnCluster {
        @Override
        String selectTypeParameters() {
            return "CR_Core_Memory";
        }

        @Test
        void theThirdAndFourthJobsNeverStop_theOtherFourAlternateInPairs() throws Exception {
            List<Long> jobs = sixJobs(cluster, counters);
            try {
                long[] before = new long[6];
                for (int i = 0; i < 6; i++) {
                    before[i] = counters.of(jobs.get(i));
                }
                Watched watched = watch(counters, jobs, Duration.ofSeconds(12));
                for (int i = 0; i < 6; i++) {
                    long id = jobs.get(i);
                    long ticks = counters.of(id) - before[i];
                    if (i == 2 || i == 3) {
                        assertEquals(false, watched.everSuspended().get(id), "job " + id + " shares no core: it is never suspended");
                        // never stopped: no time slice (2 s) without a tick; a second and a half allows a loaded machine
                        Duration still = watched.longestStill().get(id);
                        assertTrue(still.compareTo(Duration.ofMillis(1500)) < 0, "job " + id + " did not tick for "
                                + still.toMillis() + " ms: it was stopped");
                    } else {
                        assertEquals(true, watched.everSuspended().get(id), "job " + id + " shares its cores: it takes turns");
                        assertTrue(ticks > 0, "job " + id + " had a turn: it ticked " + ticks + " times");
                    }
                }
            } catch (AssertionError e) {
                keepLogs();
                throw e;
            } finally {
                cancel(cluster, jobs);
            }
        }
    }

    @Nested
    class CrCpuMemory extends OnCluster {
        @Override
        String selectTypeParameters() {
            return "CR_CPU_Memory";
        }

        @Test
        void allSixJobsTakeTurns() throws Exception {
            List<Long> jobs = sixJobs(cluster, counters);
            try {
                Watched watched = watch(counters, jobs, Duration.ofSeconds(12));
                for (long id : jobs) {
                    assertEquals(true, watched.everSuspended().get(id), "job " + id + " never waited: CPUs are only counted");
                    assertTrue(counters.of(id) > 0, "job " + id + " never ran");
                }
            } catch (AssertionError e) {
                keepLogs();
                throw e;
            } finally {
                cancel(cluster, jobs);
            }
        }
    }
}
