package dev.gantry.select.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.GresRequest;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.NodeState;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.model.SelectMode;
import dev.gantry.select.model.SelectSettings;
import dev.gantry.select.model.Topology;
import dev.gantry.select.placement.Constraint;
import dev.gantry.select.placement.JobOptions;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.ResourceRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every ResourceRequest field reaches the placement domain; placements carry core ids and GRES back. */
class ProtoMappingTest {

    @Test
    void toRequest_carriesEveryField() {
        var proto = dev.gantry.api.v1.ResourceRequest.newBuilder().setJobId(7).addPartitions("gpu").setMinNodes(2)
                .setMaxNodes(3).setNumTasks(4).setCpusPerTask(2).setNtasksPerNode(2).setMemPerCpuMb(512)
                .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(2)).setExclusive(true)
                .setOversubscribe(true).setConstraint("intel&ib").addNodelist("g1").addExclude("g4").setContiguous(true)
                .setTimeLimitSeconds(3600).build();

        ResourceRequest r = ProtoMapping.toRequest(proto, "jobs[0]");

        assertEquals(new ResourceRequest(7, List.of("gpu"), 2, 3, 4, 2, 0, new JobOptions(2, 512,
                List.of(new GresRequest("gpu", "a100", 2)), true, true, Constraint.parse("intel&ib"), List.of("g1"),
                Set.of("g4"), true, 3600)), r);
    }

    @Test
    void toRequest_carriesTheUserAndExclusiveUser() {
        var proto = dev.gantry.api.v1.ResourceRequest.newBuilder().setJobId(7).addPartitions("p").setMinNodes(1)
                .setMaxNodes(1).setNumTasks(1).setCpusPerTask(1).setUser("alice").setExclusiveUser(true).build();

        assertEquals(new dev.gantry.placement.Owner("alice", true), ProtoMapping.toRequest(proto, "job").owner());
    }

    @Test
    void toRequest_unlimitedTime_isUnknownToTheDomain_andNoConstraintIsAny() {
        var proto = dev.gantry.api.v1.ResourceRequest.newBuilder().setJobId(7).addPartitions("p").setMinNodes(1)
                .setMaxNodes(1).setNumTasks(1).setCpusPerTask(1).setTimeLimitSeconds(-1).build();
        JobOptions o = ProtoMapping.toRequest(proto, "job").options();
        assertEquals(0, o.timeLimitSeconds());
        assertEquals(Constraint.ANY, o.constraint());
    }

    @Test
    void toRequest_badFields_areInvalidArgumentNamingThem() {
        var base = dev.gantry.api.v1.ResourceRequest.newBuilder().setJobId(7).addPartitions("p").setMinNodes(1)
                .setMaxNodes(1).setNumTasks(1).setCpusPerTask(1);
        var both = assertThrows(StatusRuntimeException.class,
                () -> ProtoMapping.toRequest(base.clone().setMemPerNodeMb(1).setMemPerCpuMb(1).build(), "jobs[1]"));
        assertEquals(Status.Code.INVALID_ARGUMENT, both.getStatus().getCode());
        assertEquals("jobs[1].mem_per_node_mb and mem_per_cpu_mb are mutually exclusive", both.getStatus().getDescription());
        var constraint = assertThrows(StatusRuntimeException.class,
                () -> ProtoMapping.toRequest(base.clone().setConstraint("a&").build(), "jobs[2]"));
        assertEquals(Status.Code.INVALID_ARGUMENT, constraint.getStatus().getCode());
        assertEquals(true, constraint.getStatus().getDescription().startsWith("jobs[2].constraint: "),
                constraint.getStatus().getDescription());
    }

    private static ReplicaView view(String parameters) {
        ClusterNode g1 = new ClusterNode("g1", 4, 1, 4, 1, 8000, 1, Set.of(),
                new dev.gantry.placement.Gres(List.of(new GresPool("gpu", "v100", 1), new GresPool("gpu", "a100", 2))),
                NodeState.IDLE, false, false);
        return ReplicaView.of("e", 3, new SelectSettings(SelectMode.CONS_TRES, parameters), List.of(g1), List.of(), List.of(),
                Topology.NONE);
    }

    private static NodeAllotment share() {
        BitSet cores = new BitSet();
        cores.set(1);
        cores.set(2);
        return new NodeAllotment("g1", 2, 1024, cores, Map.of(1, 2));
    }

    @Test
    void toProto_namesCoresUnderCrCore_andGresByTheNodesNameAndType() {
        var placement = ProtoMapping.toProto(new Placement.Start(7, "p", List.of(share())), view("CR_Core_Memory"));

        assertEquals(NodeAllocation.newBuilder().setNode("g1").setCpus(2).setMemoryMb(1024).addCoreIds(1).addCoreIds(2)
                .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(2)).build(), placement.getNodes(0));
    }

    @Test
    void toProto_underCrCpu_namesNoCores() {
        var placement = ProtoMapping.toProto(new Placement.Start(7, "p", List.of(share())), view("CR_CPU"));
        assertEquals(List.of(), placement.getNodes(0).getCoreIdsList());
    }
}
