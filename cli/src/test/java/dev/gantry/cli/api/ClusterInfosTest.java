package dev.gantry.cli.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.Partition;
import dev.gantry.cli.model.GresInfo;
import dev.gantry.cli.model.NodeInfo;
import dev.gantry.cli.model.NodeStatus;
import dev.gantry.cli.model.PartitionInfo;
import dev.gantry.cli.model.PartitionStatus;
import dev.gantry.common.config.OverSubscribe;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The controller's Node and Partition as sinfo and scontrol read them. */
class ClusterInfosTest {

    private static final Instant BOOT = Instant.parse("2026-11-22T08:00:00.5Z");

    @Test
    void aNode_keepsEveryFieldTheReportsRead() {
        Node node = Node.newBuilder().setName("g1").setState(dev.gantry.api.v1.NodeState.NODE_STATE_MIXED)
                .setDrain(true).setNotResponding(true).setReason("bad disk").setCpus(8).setSockets(2)
                .setCoresPerSocket(2).setThreadsPerCore(2).setRealMemoryMb(16000).setAllocCpus(4)
                .setAllocMemoryMb(2048).addPartitions("gpu").addPartitions("debug").setAgentAddress("10.0.0.1:7001")
                .setBootTime(ProtoTime.timestamp(BOOT)).setWeight(5).addFeatures("intel").addFeatures("ib")
                .addGres(dev.gantry.api.v1.Gres.newBuilder().setName("gpu").setType("a100").setCount(2))
                .addAllocGres(dev.gantry.api.v1.Gres.newBuilder().setName("gpu").setType("a100").setCount(1)
                        .addIndices(0))
                .build();
        assertEquals(new NodeInfo("g1", NodeStatus.MIXED, true, true, "bad disk", 8, 2, 2, 2, 16000, 4, 2048,
                List.of("gpu", "debug"), "10.0.0.1:7001", BOOT, 5, List.of("intel", "ib"),
                List.of(new GresInfo("gpu", "a100", 2, List.of())), List.of(new GresInfo("gpu", "a100", 1, List.of(0)))),
                ClusterInfos.node(node));
    }

    @Test
    void anEmptyNode_hasNoBootTime_andUnknownState() {
        NodeInfo node = ClusterInfos.node(Node.getDefaultInstance());
        assertNull(node.bootTime());
        assertEquals(NodeStatus.UNKNOWN, node.state());
        assertEquals(List.of(), node.gres());
    }

    @Test
    void aPartition_keepsEveryFieldTheReportsRead() {
        Partition p = Partition.newBuilder().setName("gpu").setState(dev.gantry.api.v1.PartitionState.PARTITION_STATE_DRAIN)
                .setIsDefault(true).addNodes("n1").addNodes("n2").setNodeList("n[1-2]").setMaxTimeSeconds(-1)
                .setDefaultTimeSeconds(600).setMaxNodes(-1).setMinNodes(1).setTotalCpus(8).setPriorityTier(3)
                .setPriorityJobFactor(7).setOverSubscribe(dev.gantry.api.v1.OverSubscribe.OVER_SUBSCRIBE_FORCE)
                .setOverSubscribeJobs(4).setDefMemPerCpuMb(1).setDefMemPerNodeMb(2).setMaxMemPerCpuMb(3)
                .setMaxMemPerNodeMb(4).addAllowAccounts("physics").addAllowQos("normal").setPreemptMode("REQUEUE")
                .setEffectivePreemptMode("GANG,SUSPEND").setGraceTimeSeconds(120).setExclusiveUser(true).build();
        assertEquals(new PartitionInfo("gpu", PartitionStatus.DRAIN, true, List.of("n1", "n2"), "n[1-2]", -1, 600, -1,
                1, 8, 3, 7, OverSubscribe.Kind.FORCE, 4, new PartitionInfo.MemoryLimits(1, 2, 3, 4),
                List.of("physics"), List.of("normal"), "REQUEUE", "GANG,SUSPEND", 120, true), ClusterInfos.partition(p));
    }

    @Test
    void anEmptyPartition_isNotOversubscribed_andInAnUnknownState() {
        PartitionInfo p = ClusterInfos.partition(Partition.getDefaultInstance());
        assertEquals(OverSubscribe.Kind.NO, p.overSubscribe());
        assertEquals(PartitionStatus.UNKNOWN, p.state());
        assertEquals(new PartitionInfo.MemoryLimits(0, 0, 0, 0), p.memory());
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "NODE_STATE_IDLE, IDLE", "NODE_STATE_MIXED, MIXED", "NODE_STATE_ALLOCATED, ALLOCATED", "NODE_STATE_DOWN, DOWN",
        "NODE_STATE_UNKNOWN, UNKNOWN", "NODE_STATE_UNSPECIFIED, UNKNOWN",
    })
    void nodeStates(dev.gantry.api.v1.NodeState api, NodeStatus domain) {
        assertEquals(domain, ClusterInfos.state(api));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "PARTITION_STATE_UP, UP", "PARTITION_STATE_DOWN, DOWN", "PARTITION_STATE_DRAIN, DRAIN",
        "PARTITION_STATE_INACTIVE, INACTIVE", "PARTITION_STATE_UNSPECIFIED, UNKNOWN",
    })
    void partitionStates(dev.gantry.api.v1.PartitionState api, PartitionStatus domain) {
        assertEquals(domain, ClusterInfos.state(api));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "OVER_SUBSCRIBE_NO, NO", "OVER_SUBSCRIBE_YES, YES", "OVER_SUBSCRIBE_FORCE, FORCE",
        "OVER_SUBSCRIBE_EXCLUSIVE, EXCLUSIVE", "OVER_SUBSCRIBE_UNSPECIFIED, NO",
    })
    void overSubscribe(dev.gantry.api.v1.OverSubscribe api, OverSubscribe.Kind domain) {
        assertEquals(domain, ClusterInfos.overSubscribe(api));
    }

    @Test
    void statesThisClientDoesNotKnow() {
        assertEquals(NodeStatus.UNKNOWN, ClusterInfos.node(Node.newBuilder().setStateValue(99).build()).state());
        assertEquals(PartitionStatus.UNKNOWN,
                ClusterInfos.partition(Partition.newBuilder().setStateValue(99).build()).state());
        assertEquals(OverSubscribe.Kind.NO,
                ClusterInfos.partition(Partition.newBuilder().setOverSubscribeValue(99).build()).overSubscribe());
    }
}
