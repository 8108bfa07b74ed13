package dev.gantry.select.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.OverSubscribe;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.api.v1.Switch;
import dev.gantry.api.v1.Topology;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The resource-selection fields of scheduler-svc's snapshot reach the replica: GRES, sharing, memory, cores, tree. */
class SnapshotFieldsTest {

    @Test
    void snapshot_gresSharingMemoryCoresAndTopology() {
        ClusterSnapshot snapshot = ClusterSnapshot.newBuilder()
                .addNodes(Node.newBuilder().setName("g1").setState(NodeState.NODE_STATE_IDLE).setCpus(4).setSockets(1)
                        .setCoresPerSocket(4).setThreadsPerCore(1).setRealMemoryMb(8000)
                        .addGres(Gres.newBuilder().setName("gpu").setType("v100").setCount(1))
                        .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(2)))
                .addPartitions(Partition.newBuilder().setName("p").setState(PartitionState.PARTITION_STATE_UP).addNodes("g1")
                        .setOverSubscribe(OverSubscribe.OVER_SUBSCRIBE_FORCE).setOverSubscribeJobs(3)
                        .setDefMemPerCpuMb(100).setMaxMemPerNodeMb(4000))
                .addAllocations(Allocation.newBuilder().setJobId(5).setPartition("p").addNodes(NodeAllocation.newBuilder()
                        .setNode("g1").setCpus(2).setMemoryMb(200).addCoreIds(0).addCoreIds(3)
                        .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(1))))
                .setTopology(Topology.newBuilder()
                        .addSwitches(Switch.newBuilder().setName("s1").setParent("top").addNodes("g1"))
                        .addSwitches(Switch.newBuilder().setName("top").setLevel(1).addSwitches("s1")))
                .build();

        ReplicaView view = ReplicaInputs.replica("e", 1, snapshot).view();

        assertEquals(List.of(new GresPool("gpu", "v100", 1), new GresPool("gpu", "a100", 2)), view.node(0).gres().pools());
        ClusterPartition p = view.partition("p").orElseThrow();
        assertEquals(new dev.gantry.common.config.OverSubscribe(dev.gantry.common.config.OverSubscribe.Kind.FORCE, 3), p.oversubscribe());
        assertEquals(new MemoryLimits(100, 0, 0, 4000), p.memory());
        NodeAllotment held = view.allocations().get(0).nodes().get(0);
        assertEquals(List.of(0, 3), held.units().stream().boxed().toList());
        assertEquals(Map.of(1, 1), held.gres(), "a100 is the node's second pool");
        assertEquals(new dev.gantry.select.model.Topology(List.of(
                new dev.gantry.select.model.Topology.Switch("s1", List.of(), List.of("g1")),
                new dev.gantry.select.model.Topology.Switch("top", List.of("s1"), List.of()))), view.topology());
    }
}
