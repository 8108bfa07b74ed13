package dev.gantry.cli.scontrol;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.cli.api.JobInfos;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** scontrol -d show job: what a job holds on each node, in Slurm 22.05's lines (src/api/job_info.c). */
class JobDetailLinesTest {

    private static NodeAllocation on(String node, long memoryMb, Integer... cores) {
        return NodeAllocation.newBuilder().setNode(node).setCpus(cores.length).setMemoryMb(memoryMb)
                .addAllCoreIds(List.of(cores)).build();
    }

    private static String detailed(Job job, int threadsPerCore) {
        return JobLayout.detailed(NOW, ZoneOffset.UTC, gid -> null, false, node -> threadsPerCore)
                .render(JobInfos.job(job));
    }

    @Test
    void nodesHoldingTheSame_shareOneLine_afterSocksPerNode() {
        // Slurm, sbatch -N4 on four 2-core 4096 MiB nodes:
        //    Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*
        //    JOB_GRES=(null)
        //      Nodes=n[1-4] CPU_IDs=0 Mem=4096 GRES=
        //    MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0
        Job job = running(aJob(1), 10, "n1", "n2", "n3", "n4").clearAllocation()
                .addAllocation(on("n1", 4096, 0)).addAllocation(on("n2", 4096, 0))
                .addAllocation(on("n3", 4096, 0)).addAllocation(on("n4", 4096, 0)).build();
        String text = detailed(job, 1);
        assertTrue(text.contains("""
                   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*
                   JOB_GRES=(null)
                     Nodes=n[1-4] CPU_IDs=0 Mem=4096 GRES=
                   MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0
                """), text);
        assertTrue(text.contains("\n   Requeue=0 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n   DerivedExitCode=0:0\n"),
                text);
    }

    @Test
    void differentAllocations_eachRunOfNodesItsLine_inNodeOrder_cpuIdsCountingThreads() {
        Job job = running(aJob(2), 10, "n10", "n2", "n3").clearAllocation()
                .addAllocation(on("n10", 2048, 0, 1)).addAllocation(on("n2", 2048, 0, 1)).addAllocation(on("n3", 1024, 3))
                .build();
        String text = detailed(job, 2);
        assertTrue(text.contains("""
                   JOB_GRES=(null)
                     Nodes=n2 CPU_IDs=0-3 Mem=2048 GRES=
                     Nodes=n3 CPU_IDs=6-7 Mem=1024 GRES=
                     Nodes=n10 CPU_IDs=0-3 Mem=2048 GRES=
                """), text);
    }

    @Test
    void gres_showsEachPoolsCountAndDeviceIndices_andTheJobsTotal() {
        NodeAllocation n1 = on("n1", 0, 0).toBuilder()
                .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(2).addIndices(0).addIndices(1)).build();
        NodeAllocation n2 = on("n2", 0, 0).toBuilder()
                .addGres(Gres.newBuilder().setName("gpu").setType("a100").setCount(1).addIndices(3)).build();
        Job job = running(aJob(3), 10, "n1", "n2").clearAllocation().addAllocation(n1).addAllocation(n2).build();
        String text = detailed(job, 1);
        assertTrue(text.contains("""
                   JOB_GRES=gpu:a100:3
                     Nodes=n1 CPU_IDs=0 Mem=0 GRES=gpu:a100:2(IDX:0-1)
                     Nodes=n2 CPU_IDs=0 Mem=0 GRES=gpu:a100:1(IDX:3)
                """), text);
    }

    @Test
    void withoutCoreIds_theCpusAreNotNamed() {
        Job job = running(aJob(4), 10, "n1").clearAllocation()
                .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(2).setMemoryMb(100)).build();
        assertTrue(detailed(job, 1).contains("\n     Nodes=n1 CPU_IDs=N/A Mem=100 GRES=\n"));
    }

    @Test
    void aPendingJob_holdsNothing_andWithoutDashD_noneOfIt() {
        assertFalse(detailed(aJob(5).build(), 1).contains("JOB_GRES"));
        Job job = running(aJob(6), 10, "n1").clearAllocation().addAllocation(on("n1", 100, 0)).build();
        String plain = new JobLayout(NOW, ZoneOffset.UTC, gid -> null, false).render(JobInfos.job(job));
        assertFalse(plain.contains("JOB_GRES") || plain.contains("DerivedExitCode"), plain);
        assertEquals("0-1,3,5-7", dev.gantry.cli.text.IdRanges.format(List.of(0, 1, 3, 5, 6, 7)));
    }
}
