package dev.gantry.scheduler.api;

import static dev.gantry.scheduler.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.OverSubscribe;
import dev.gantry.api.v1.Switch;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot select-svc replicates carries GRES, sharing, memory limits, core ids and the topology. */
class ClusterProtosTest {

    @Test
    void snapshot_carriesNodeGres_partitionLimits_allocationCoresAndGres_andTheTree(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("topology.conf"), "SwitchName=s1 Nodes=g1\nSwitchName=s2 Nodes=g2\nSwitchName=top Switches=s[1-2]\n");
        Path conf = Files.writeString(dir.resolve("gantry.conf"), """
                GresTypes=gpu
                TopologyPlugin=topology/tree
                DefMemPerCPU=128
                MaxMemPerNode=4000
                NodeName=g1 CPUs=4 RealMemory=8000 Gres=gpu:a100:2
                NodeName=g2 CPUs=4 RealMemory=8000
                PartitionName=p Nodes=g[1-2] OverSubscribe=FORCE:3 MaxMemPerCPU=900
                PartitionName=q Nodes=g1 OverSubscribe=YES
                """);
        ClusterState state = new ClusterState(ConfigParser.parse(conf)); // a value to map, no controller's
        NodeShare share = new NodeShare("g1", 2, 256, List.of(0, 1), List.of(new GresGrant("gpu", "a100", 1, List.of(1))));
        state.put(Fixtures.aJob(5).build().toBuilder().partition("p").state(JobState.RUNNING, T0).startTime(T0)
                .allocation(List.of(share)).build());

        ClusterSnapshot snap = ClusterProtos.snapshot(state);

        var g1 = snap.getNodes(0);
        assertEquals(List.of(Gres.newBuilder().setName("gpu").setType("a100").setCount(2).build()), g1.getGresList());
        assertEquals(List.of(Gres.newBuilder().setName("gpu").setType("a100").setCount(1).build()), g1.getAllocGresList());
        var p = snap.getPartitions(0);
        assertEquals(OverSubscribe.OVER_SUBSCRIBE_FORCE, p.getOverSubscribe());
        assertEquals(3, p.getOverSubscribeJobs());
        assertEquals(128, p.getDefMemPerCpuMb(), "global DefMemPerCPU");
        assertEquals(900, p.getMaxMemPerCpuMb(), "the partition's own");
        assertEquals(4000, p.getMaxMemPerNodeMb());
        assertEquals(4, snap.getPartitions(1).getOverSubscribeJobs(), "YES without a count: Slurm's 4");
        assertEquals(false, snap.getAllocations(0).getExclusive());
        var alloc = snap.getAllocations(0).getNodes(0);
        assertEquals(List.of(0, 1), alloc.getCoreIdsList());
        assertEquals(List.of(1), alloc.getGres(0).getIndicesList());
        assertEquals(List.of(
                Switch.newBuilder().setName("s1").setParent("top").setLevel(0).addNodes("g1").build(),
                Switch.newBuilder().setName("s2").setParent("top").setLevel(0).addNodes("g2").build(),
                Switch.newBuilder().setName("top").setLevel(1).addSwitches("s1").addSwitches("s2").build()),
                snap.getTopology().getSwitchesList());
    }

    @Test
    void anExclusiveJobsAllocation_saysSo(@TempDir Path dir) throws IOException {
        Path conf = Files.writeString(dir.resolve("gantry.conf"), "NodeName=n1 CPUs=4\nPartitionName=p Nodes=n1\n");
        ClusterState state = new ClusterState(ConfigParser.parse(conf));
        var job = Fixtures.aJob(5).build();
        var ask = job.ask();
        var sel = ask.selection();
        var exclusive = new dev.gantry.scheduler.model.NodeSelection(sel.gres(), true, sel.constraint(), sel.requiredNodes(),
                sel.excludedNodes(), sel.contiguous(), sel.oversubscribe());
        state.put(job.toBuilder().partition("p").state(JobState.RUNNING, T0).startTime(T0)
                .ask(new dev.gantry.scheduler.model.ResourceAsk(ask.minNodes(), ask.maxNodes(), ask.numTasks(),
                        ask.cpusPerTask(), ask.memPerNodeMb(), ask.ntasksPerNode(), ask.memPerCpuMb(), exclusive))
                .allocation(List.of(new NodeShare("n1", 4, 0, List.of(0, 1, 2, 3), List.of()))).build());

        assertEquals(true, ClusterProtos.snapshot(state).getAllocations(0).getExclusive());
    }
}
