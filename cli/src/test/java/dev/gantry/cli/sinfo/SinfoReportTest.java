package dev.gantry.cli.sinfo;

import static dev.gantry.cli.testing.ClusterFixtures.aNode;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.cli.api.ClusterInfos;
import dev.gantry.cli.model.NodeInfo;
import dev.gantry.cli.model.PartitionInfo;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SinfoReportTest {

    private static final List<PartitionInfo> PARTITIONS = ClusterInfos.partitions(List.of(
            aPartition("debug", "n1", "n2", "n3", "n4", "n5", "n6").setIsDefault(true).setMaxTimeSeconds(1800).build(),
            aPartition("long", "n5", "n6").setMaxTimeSeconds(3 * 86400 + 3600).build(),
            aPartition("empty").setState(PartitionState.PARTITION_STATE_INACTIVE).build()));

    private static final List<NodeInfo> NODES = ClusterInfos.nodes(List.of(
            aNode("n1", "debug").build(),
            aNode("n2", "debug").setState(NodeState.NODE_STATE_MIXED).build(),
            aNode("n3", "debug").build(),
            aNode("n4", "debug").setState(NodeState.NODE_STATE_ALLOCATED).setDrain(true).build(),
            aNode("n5", "debug", "long").setState(NodeState.NODE_STATE_DOWN).setNotResponding(true).build(),
            aNode("n6", "debug", "long").setState(NodeState.NODE_STATE_MIXED).build()));

    @Test
    void groupsEachPartitionsNodesByStateInSlurmsOrder() {
        List<String> lines = new SinfoReport(true, false, Set.of()).lines(PARTITIONS, NODES);
        assertEquals(List.of(
                "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST",
                "debug*       up      30:00      1  down* n5",
                "debug*       up      30:00      1   drng n4",
                "debug*       up      30:00      2    mix n[2,6]",
                "debug*       up      30:00      2   idle n[1,3]",
                "long         up 3-01:00:00      1  down* n5",
                "long         up 3-01:00:00      1    mix n6",
                "empty     inact   infinite      0    n/a "), lines);
    }

    @Test
    void thePartitionColumnWidensToTheLongestName() {
        List<PartitionInfo> parts = ClusterInfos.partitions(List.of(aPartition("verylongpartition", "n1")
                .setIsDefault(true).build()));
        List<NodeInfo> nodes = ClusterInfos.nodes(List.of(aNode("n1").build()));
        List<String> lines = new SinfoReport(true, false, Set.of()).lines(parts, nodes);
        assertEquals("PARTITION          AVAIL  TIMELIMIT  NODES  STATE NODELIST", lines.get(0));
        assertEquals("verylongpartition*    up   infinite      1   idle n1", lines.get(1));
    }

    @Test
    void partitionFilterAndNoHeader() {
        List<String> lines = new SinfoReport(false, false, Set.of("long")).lines(PARTITIONS, NODES);
        assertEquals(List.of(
                "long         up 3-01:00:00      1  down* n5",
                "long         up 3-01:00:00      1    mix n6"), lines);
    }

    @Test
    void nodeOrientedListsEachNodeAndPartition() {
        List<String> lines = new SinfoReport(true, true, Set.of()).lines(PARTITIONS, NODES);
        assertEquals(List.of(
                "NODELIST   NODES PARTITION STATE ",
                "n1             1 debug*    idle  ",
                "n2             1 debug*    mix   ",
                "n3             1 debug*    idle  ",
                "n4             1 debug*    drng  ",
                "n5             1 debug*    down* ",
                "n5             1 long      down* ",
                "n6             1 debug*    mix   ",
                "n6             1 long      mix   "), lines);
    }

    @Test
    void theDefaultMarkReplacesTheLastCharacterWhenTheNameFillsTheColumn() {
        PartitionInfo p = ClusterInfos.partition(aPartition("abcdefghi").setIsDefault(true).build());
        assertEquals("abcdefgh*", SinfoReport.partitionName(p, 9));
        assertEquals("abcdefghi*", SinfoReport.partitionName(p, 10));
    }
}
