package dev.gantry.select.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.OverSubscribe;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.Switch;
import dev.gantry.common.config.PartitionState;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.NodeState;
import dev.gantry.select.model.ReplicaView;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The snapshot's issue-3 fields reach the model: GRES, OverSubscribe, memory limits, core ids, the switch tree. */
class ProtoToModelTest {

    private static final ClusterSnapshot SNAPSHOT = ClusterSnapshot.newBuilder()
            .addNodes(Node.newBuilder().setName("n1").setState(dev.gantry.api.v1.NodeState.NODE_STATE_MIXED).setCpus(8)
                    .setSockets(2).setCoresPerSocket(4).setThreadsPerCore(1).setRealMemoryMb(16000)
                    .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(2))
                    .addGres(Gres.newBuilder().setName("gpu").setType("v100").setCount(1)))
            .addPartitions(Partition.newBuilder().setName("p").setState(dev.gantry.api.v1.PartitionState.PARTITION_STATE_UP)
                    .addNodes("n1").setOverSubscribe(OverSubscribe.OVER_SUBSCRIBE_FORCE)
                    .setOverSubscribeJobs(3).setDefMemPerCpuMb(1000).setMaxMemPerNodeMb(12000).setPriorityTier(5))
            .addAllocations(Allocation.newBuilder().setJobId(7).setPartition("p").addNodes(NodeAllocation.newBuilder()
                    .setNode("n1").setCpus(2).setMemoryMb(2000).addCoreIds(1).addCoreIds(5)
                    .addGres(Gres.newBuilder().setName("gpu").setType("v100").setCount(1))))
            .setTopology(dev.gantry.api.v1.Topology.newBuilder()
                    .addSwitches(Switch.newBuilder().setName("leaf").addNodes("n1").setParent("top"))
                    .addSwitches(Switch.newBuilder().setName("top").addSwitches("leaf").setLevel(1)))
            .build();

    private final ReplicaView view = ReplicaInputs.replica("e", 1, SNAPSHOT).view();

    @Test
    void nodesCarryTheirGresAndLayout() {
        ClusterNode n1 = view.node(0);
        assertEquals(List.of(new GresPool("gpu", "a100", 2), new GresPool("gpu", "v100", 1)), n1.gres().pools());
        assertEquals(8, n1.cores());
        assertEquals(NodeState.MIXED, n1.state());
    }

    @Test
    void partitionsCarryOverSubscribeAndMemoryLimits() {
        ClusterPartition p = view.partition("p").orElseThrow();
        assertEquals(new dev.gantry.common.config.OverSubscribe(dev.gantry.common.config.OverSubscribe.Kind.FORCE, 3), p.oversubscribe());
        assertEquals(new MemoryLimits(1000, 0, 0, 12000), p.memory());
        assertEquals(5, p.priorityTier());
    }

    @Test
    void allocationsCarryCoreIdsAndGresByPool() {
        NodeAllotment share = view.allocations().getFirst().nodes().getFirst();
        BitSet cores = new BitSet();
        cores.set(1);
        cores.set(5);
        assertEquals(cores, share.units());
        assertEquals(Map.of(1, 1), share.gres());
    }

    @Test
    void anExclusiveAllocation_isSharedWithNoOtherJob_evenUnderForce() {
        var planner = dev.gantry.select.placement.PlacementPlanner.standard();
        var job = dev.gantry.select.fixture.JobFixture.aJob(8).partitions("p").build();
        assertTrue(planner.plan(view, List.of(job), false).getFirst()
                instanceof dev.gantry.select.placement.Placement.Start, "FORCE:3 shares job 7's node");

        ClusterSnapshot.Builder exclusive = SNAPSHOT.toBuilder();
        exclusive.setAllocations(0, exclusive.getAllocations(0).toBuilder().setExclusive(true));
        ReplicaView withExclusive = ReplicaInputs.replica("e", 1, exclusive.build()).view();

        assertTrue(withExclusive.allocations().getFirst().exclusive());
        assertTrue(planner.plan(withExclusive, List.of(job), false).getFirst()
                instanceof dev.gantry.select.placement.Placement.Pending, "job 7 has n1 to itself");
    }

    @Test
    void theSwitchTreeIsKept() {
        assertEquals(Map.of("leaf", 0, "top", 1), view.topology().levels());
    }
}
