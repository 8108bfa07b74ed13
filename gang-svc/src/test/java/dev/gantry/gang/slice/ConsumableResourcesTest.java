package dev.gantry.gang.slice;

import dev.gantry.common.overlap.OverlapRule;
import static dev.gantry.gang.slice.VirtualCluster.cores;
import static dev.gantry.gang.slice.VirtualCluster.cpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Slurm's "Consumable Resource Examples" (https://slurm.schedmd.com/gang_scheduling.html): six jobs of -n10 -N5 (two
 * CPUs per node) on five 8-CPU nodes (2 sockets × 4 cores) with OverSubscribe=FORCE.
 */
class ConsumableResourcesTest {

    /**
     * CR_Core_Memory: jobs are pinned to their cores. 44–47 take cores 0–1, 2–3, 4–5, 6–7; 48 and 49 were allocated
     * the cores of 44 and 45. So 46 and 47 never stop, and 44+45 alternate with 48+49.
     */
    @Test
    void crCore_twoJobsAreNeverSuspended_andFourAlternateInPairs() {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.SpecificCores());
        cluster.start(44, cores("n[12-16]", 0, 1));
        cluster.start(45, cores("n[12-16]", 2, 3));
        cluster.start(46, cores("n[12-16]", 4, 5));
        cluster.start(47, cores("n[12-16]", 6, 7));
        cluster.start(48, cores("n[12-16]", 0, 1));
        cluster.start(49, cores("n[12-16]", 2, 3));
        assertEquals("R 44 45 46 47 S 48 49", cluster.state());

        cluster.slice();                 // 44 and 45 started between slices: they keep theirs
        assertEquals("R 44 45 46 47 S 48 49", cluster.state());
        cluster.slice();
        assertEquals("R 46 47 48 49 S 44 45", cluster.state());
        cluster.slice();
        assertEquals("R 44 45 46 47 S 48 49", cluster.state());

        for (int slice = 0; slice < 40; slice++) {
            cluster.slice();
            assertEquals(slice % 2 == 0 ? "R 46 47 48 49 S 44 45" : "R 44 45 46 47 S 48 49", cluster.state(), "slice " + slice);
        }
    }

    /**
     * CR_CPU_Memory: CPUs are only counted (eight per node, two per job), so four jobs fit at a time and all six
     * rotate: 51–54 run first (through the first slice, which they started in), then 51 52 55 56, then 53–56, then
     * 51–54 again — the order of Slurm's transcript.
     */
    @Test
    void crCpu_allSixRotate() {
        VirtualCluster cluster = cpuExample();
        assertEquals("R 51 52 53 54 S 55 56", cluster.state());
        cluster.slice();
        assertEquals("R 51 52 53 54 S 55 56", cluster.state());

        cluster.slice();
        assertEquals("R 51 52 55 56 S 53 54", cluster.state());
        cluster.slice();
        assertEquals("R 53 54 55 56 S 51 52", cluster.state());
        cluster.slice();
        assertEquals("R 51 52 53 54 S 55 56", cluster.state());
    }

    /**
     * Every job runs two of every three slices from the third on, so run times never drift apart: 55 and 56, which
     * waited through the slice the others started in, stay at most two slices behind and never fall further.
     */
    @Test
    void crCpu_runTimesStayWithinTwoSlicesOfEachOther_andGrowAtTheSameRate() {
        VirtualCluster cluster = cpuExample();
        Duration slice = cluster.slicer().settings().timeSlice();
        List<long[]> history = new java.util.ArrayList<>();

        for (int step = 1; step <= 300; step++) {
            cluster.slice();
            long[] seconds = LongStream.rangeClosed(51, 56).map(job -> cluster.runTime(job).toSeconds()).toArray();
            history.add(seconds);
            LongSummaryStatistics stats = java.util.Arrays.stream(seconds).summaryStatistics();
            assertTrue(stats.getMax() - stats.getMin() <= 2 * slice.toSeconds(),
                    "after " + step + " slices run times range from " + stats.getMin() + " to " + stats.getMax() + " s");
            if (step >= 5) {
                long[] before = history.get(step - 4);
                for (int j = 0; j < seconds.length; j++) {
                    assertEquals(2 * slice.toSeconds(), seconds[j] - before[j], "job " + (51 + j) + " in slices " + (step - 2) + ".." + step);
                }
            }
        }
        // 56 runs in slices 3, 4, 6, 7, … (two of every three from the third on): 300 - 2 - 99 slices of 30 s
        assertEquals(Duration.ofSeconds((300 - 2 - 99) * 30), cluster.runTime(56));
    }

    private static VirtualCluster cpuExample() {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.CountedCpus());
        for (long job = 51; job <= 56; job++) {
            cluster.start(job, cpus("n[12-16]", 2));
        }
        return cluster;
    }

    @Test
    void crCpu_aJobThatFitsBesideTheOthersCountsOnlyItsCpus() {
        VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.CountedCpus());
        cluster.start(1, cpus("n[12-16]", 6));
        cluster.start(2, cpus("n12", 2));
        cluster.start(3, cpus("n12", 1));

        assertEquals("R 1 2 S 3", cluster.state());
        assertEquals(List.of(3L), List.copyOf(cluster.suspended()));
    }
}
