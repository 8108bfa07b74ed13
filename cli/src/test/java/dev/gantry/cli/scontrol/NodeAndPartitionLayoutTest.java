package dev.gantry.cli.scontrol;

import static dev.gantry.cli.testing.ClusterFixtures.aNode;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.OverSubscribe;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.cli.api.ClusterInfos;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class NodeAndPartitionLayoutTest {

    private static String render(Node node) {
        return new NodeLayout(ZoneOffset.UTC, false).render(ClusterInfos.node(node));
    }

    private static String render(Partition partition) {
        return new PartitionLayout(false).render(ClusterInfos.partition(partition));
    }

    @Test
    void aNodeInSlurmsLayout() {
        Node node = aNode("n1", "debug", "long").setState(NodeState.NODE_STATE_MIXED).setAllocCpus(2)
                .setAllocMemoryMb(1024).setAgentAddress("127.0.0.1:7001").build();
        assertEquals("""
                NodeName=n1 CoresPerSocket=4\s
                   CPUAlloc=2 CPUEfctv=4 CPUTot=4 CPULoad=N/A
                   AvailableFeatures=(null)
                   ActiveFeatures=(null)
                   Gres=(null)
                   NodeAddr=127.0.0.1 NodeHostName=n1 Port=7001\s
                   RealMemory=8000 AllocMem=1024 FreeMem=N/A Sockets=1 Boards=1
                   State=MIXED ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A
                   Partitions=debug,long\s
                   BootTime=None SlurmdStartTime=None
                   LastBusyTime=Unknown ResumeAfterTime=None
                   CfgTRES=cpu=4,mem=8000M,billing=4
                   AllocTRES=cpu=2,mem=1G
                   CurrentWatts=0 AveWatts=0

                """, render(node));
    }

    @Test
    void gresAndFeatures_showAsSlurmShowsThem() {
        Node node = aNode("g1").addFeatures("intel").addFeatures("ib")
                .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(2))
                .addGres(Gres.newBuilder().setName("gpu").setType("v100").setCount(1))
                .setAllocCpus(1).addAllocGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(1)).build();
        String text = render(node);
        assertTrue(text.contains("   AvailableFeatures=intel,ib\n   ActiveFeatures=intel,ib\n"), text);
        assertTrue(text.contains("   Gres=gpu:a100:2,gpu:v100:1\n"), text);
        assertTrue(text.contains("CfgTRES=cpu=4,mem=8000M,billing=4,gres/gpu=3,gres/gpu:a100=2,gres/gpu:v100=1\n"), text);
        assertTrue(text.contains("AllocTRES=cpu=1,gres/gpu=1,gres/gpu:a100=1\n"), text);
    }

    @Test
    void partitionSharingAndMemoryLimits() {
        String text = render(aPartition("p").setOverSubscribe(OverSubscribe.OVER_SUBSCRIBE_FORCE)
                .setOverSubscribeJobs(2).setDefMemPerCpuMb(512).setMaxMemPerNodeMb(4000).build());
        assertTrue(text.contains(" OverSubscribe=FORCE:2\n"), text);
        assertTrue(text.contains("DefMemPerCPU=512 MaxMemPerNode=4000\n"), text);
    }

    @Test
    void partitionAccessAndPreemptionSettings() {
        String text = render(aPartition("p").addAllowAccounts("physics").addAllowAccounts("chem")
                .addAllowQos("normal").setPriorityJobFactor(7).setPreemptMode("REQUEUE").setGraceTimeSeconds(120)
                .setExclusiveUser(true).build());
        assertTrue(text.contains("AllowGroups=ALL AllowAccounts=physics,chem AllowQos=normal\n"), text);
        assertTrue(text.contains("ExclusiveUser=YES GraceTime=120 "), text);
        assertTrue(text.contains("PriorityJobFactor=7 "), text);
        assertTrue(text.contains("PreemptMode=REQUEUE\n"), text);
    }

    @Test
    void preemptMode_isTheOneInForce_theClustersWhenThePartitionHasNone() {
        String inherited = render(aPartition("p").setEffectivePreemptMode("GANG,SUSPEND").build());
        assertTrue(inherited.contains(" PreemptMode=GANG,SUSPEND\n"), inherited);
        String own = render(aPartition("p").setPreemptMode("REQUEUE")
                .setEffectivePreemptMode("REQUEUE").build());
        assertTrue(own.contains(" PreemptMode=REQUEUE\n"), own);
    }

    @Test
    void aDrainedNodeShowsItsReason() {
        Node node = aNode("n2").setDrain(true).setReason("bad disk").build();
        String text = render(node);
        assertTrue(text.contains("State=IDLE+DRAIN "), text);
        assertTrue(text.endsWith("AveWatts=0\n   Reason=bad disk\n\n"), text);
    }

    @Test
    void aPartitionInSlurmsLayout() {
        var p = aPartition("debug", "n1", "n2", "n3").setIsDefault(true).setMaxTimeSeconds(1800)
                .setDefaultTimeSeconds(600).setMaxNodes(2).setPriorityTier(5).setPriorityJobFactor(1).build();
        assertEquals("""
                PartitionName=debug
                   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL
                   AllocNodes=ALL Default=YES QoS=N/A
                   DefaultTime=00:10:00 DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO
                   MaxNodes=2 MaxTime=00:30:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED
                   Nodes=n[1-3]
                   PriorityJobFactor=1 PriorityTier=5 RootOnly=NO ReqResv=NO OverSubscribe=NO
                   OverTimeLimit=NONE PreemptMode=OFF
                   State=UP TotalCPUs=12 TotalNodes=3 SelectTypeParameters=NONE
                   JobDefaults=(null)
                   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED

                """, render(p));
    }

    @Test
    void unsetPartitionLimitsPrintAsSlurmsWords() {
        String text = render(aPartition("empty").setState(PartitionState.PARTITION_STATE_DRAIN).build());
        assertTrue(text.contains("DefaultTime=NONE "), text);
        assertTrue(text.contains("MaxNodes=UNLIMITED MaxTime=UNLIMITED "), text);
        assertTrue(text.contains("Nodes=(null)"), text);
        assertTrue(text.contains("State=DRAIN "), text);
    }
}
