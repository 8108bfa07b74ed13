package dev.gantry.gang.slice;

import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import static dev.gantry.gang.slice.VirtualCluster.cores;
import static dev.gantry.gang.slice.VirtualCluster.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.hostlist.Hostlist;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shadows (https://slurm.schedmd.com/gang_scheduling.html, PreemptMode; https://slurm.schedmd.com/preempt.html): a
 * running job of a higher PriorityTier partition suspends the lower partitions' jobs on its resources until it goes.
 * Time-slicing never happens between partitions.
 */
class ShadowsTest {

    private static VirtualCluster cluster(OverlapRule rule, PartitionShape... partitions) {
        return new VirtualCluster(new GangSettings(true, Duration.ofSeconds(30)), rule,
                Hostlist.expand("n[1-4]").stream().map(n -> new NodeShape(n, 8, 4)).toList(), List.of(partitions));
    }

    private static final PartitionShape LOW = new PartitionShape("low", 1, true);
    private static final PartitionShape HIGH = new PartitionShape("high", 2, true);

    @Test
    void aHigherTierJobSuspendsLowerJobsUnderIt_whichResumeWhenItEnds() {
        VirtualCluster cluster = cluster(new OverlapRule.WholeNodes(), LOW, HIGH);
        cluster.start(1, "low", nodes("n[1-2]"));
        cluster.start(2, "low", nodes("n[3-4]"));

        SliceOutcome shadowed = cluster.start(10, "high", nodes("n2"));
        assertEquals(List.of(new PartitionDecision("low", List.of(1L), List.of())), shadowed.decisions());
        assertEquals("R 2 10 S 1", cluster.state());

        for (int slice = 0; slice < 5; slice++) {
            cluster.slice();
            assertEquals("R 2 10 S 1", cluster.state(), "the shadow holds on slice " + slice);
        }

        SliceOutcome gone = cluster.end(10);
        assertEquals(List.of(new PartitionDecision("low", List.of(), List.of(1L))), gone.decisions());
        assertEquals("R 1 2", cluster.state());
        assertEquals(List.of(new SuspendedTime("low", Duration.ofSeconds(150))), gone.suspensions());
    }

    @Test
    void lowerJobsOutsideTheShadowKeepRotating() {
        VirtualCluster cluster = cluster(new OverlapRule.WholeNodes(), LOW, HIGH);
        cluster.start(1, "low", nodes("n[1-2]"));
        cluster.start(2, "low", nodes("n[3-4]"));
        cluster.start(3, "low", nodes("n[3-4]"));
        cluster.start(10, "high", nodes("n1"));
        assertEquals("R 2 10 S 1 3", cluster.state());

        cluster.slice();                 // 2 started between slices: it keeps its first
        assertEquals("R 2 10 S 1 3", cluster.state());
        cluster.slice();
        assertEquals("R 3 10 S 1 2", cluster.state());
        cluster.slice();
        assertEquals("R 2 10 S 1 3", cluster.state());
    }

    @Test
    void noTimeSlicingBetweenPartitions_ofTheSameTier() {
        VirtualCluster cluster = cluster(new OverlapRule.WholeNodes(), new PartitionShape("a", 1, true),
                new PartitionShape("b", 1, true));
        cluster.start(1, "a", nodes("n[1-4]"));
        cluster.start(2, "b", nodes("n[1-4]"));

        for (int slice = 0; slice < 5; slice++) {
            cluster.slice();
            assertEquals("R 1 2", cluster.state());
        }
    }

    @Test
    void theHigherTierJobIsNeverSlicedAgainstLowerOnes() {
        VirtualCluster cluster = cluster(new OverlapRule.WholeNodes(), LOW, HIGH);
        cluster.start(1, "low", nodes("n[1-4]"));
        cluster.start(10, "high", nodes("n[1-4]"));

        for (int slice = 0; slice < 5; slice++) {
            cluster.slice();
            assertEquals("R 10 S 1", cluster.state());
        }
    }

    @Test
    void underCrCore_aShadowCoversOnlyTheCoresItHolds() {
        VirtualCluster cluster = cluster(new OverlapRule.SpecificCores(), LOW, HIGH);
        cluster.start(1, "low", cores("n[1-4]", 0, 1));
        cluster.start(2, "low", cores("n[1-4]", 2, 3));
        cluster.start(10, "high", cores("n1", 2));

        assertEquals("R 1 10 S 2", cluster.state());
    }

    @Test
    void aShadowFromTheTopTierReachesEveryLowerTier() {
        VirtualCluster cluster = cluster(new OverlapRule.WholeNodes(), LOW, HIGH, new PartitionShape("top", 3, true));
        cluster.start(1, "low", nodes("n1"));
        cluster.start(2, "high", nodes("n2"));
        cluster.start(20, "top", nodes("n[1-2]"));
        assertEquals("R 20 S 1 2", cluster.state());

        cluster.end(20);
        assertEquals("R 1 2", cluster.state());
    }

    @Test
    void aPartitionWithoutGangNeverHasJobsSuspended_butItsJobsCastShadows() {
        VirtualCluster cluster = cluster(new OverlapRule.WholeNodes(), LOW, new PartitionShape("plain", 2, false));
        cluster.start(5, "plain", nodes("n1"));
        cluster.start(6, "plain", nodes("n1"));
        cluster.start(1, "low", nodes("n1"));

        cluster.slice();
        assertEquals("R 5 6 S 1", cluster.state());
        assertTrue(cluster.slicer().outstanding().isEmpty());
    }
}
