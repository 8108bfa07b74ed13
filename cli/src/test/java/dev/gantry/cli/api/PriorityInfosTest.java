package dev.gantry.cli.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.JobPriority;
import dev.gantry.cli.model.PriorityInfo;
import dev.gantry.cli.model.PriorityWeightsInfo;
import dev.gantry.cli.model.ShareInfo;
import dev.gantry.cli.model.UsageInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** sprio's and sshare's messages as their reports read them. */
class PriorityInfosTest {

    @Test
    void aJobsPriority_keepsEveryFactor() {
        JobPriority p = JobPriority.newBuilder().setJobId(7).setPartition("debug").setUser("alice").setAccount("physics")
                .setQos("high").setPriority(-1L).setSite(1).setAge(2.5).setFairshare(3).setJobSize(4)
                .setPartitionFactor(5).setQosFactor(6).setNice(-7).putTres("cpu", 8.5).setAdminSet(true).build();
        assertEquals(new PriorityInfo(7, "debug", "alice", "physics", "high", -1L, 1, 2.5, 3, 4, 5, 6, -7,
                Map.of("cpu", 8.5), true), PriorityInfos.priority(p));
    }

    @Test
    void theWeights() {
        var w = dev.gantry.api.v1.PriorityWeights.newBuilder().setAge(1).setFairshare(2).setJobSize(3).setPartition(4)
                .setQos(5).putTres("mem", 0.25).build();
        assertEquals(new PriorityWeightsInfo(1, 2, 3, 4, 5, Map.of("mem", 0.25)), PriorityInfos.weights(w));
        assertEquals(new PriorityWeightsInfo(0, 0, 0, 0, 0, Map.of()),
                PriorityInfos.weights(dev.gantry.api.v1.PriorityWeights.getDefaultInstance()));
    }

    @Test
    void aShareRow_keepsEveryColumnAndBothAmounts() {
        var row = dev.gantry.api.v1.ShareRow.newBuilder().setAccount("physics").setUser("alice").setDepth(2)
                .setRawShares(10).setNormShares(0.5).setRawUsage(3600.7).setNormUsage(0.25).setEffectiveUsage(0.3)
                .setFairshare(0.8).putTresRawUsage("cpu", 5400)
                .setUsageToHalve(dev.gantry.api.v1.UsageAmount.newBuilder().setCpuHours(12.5).setGpuHours(-1)
                        .setGbHours(400))
                .setUsageToZero(dev.gantry.api.v1.UsageAmount.newBuilder().setNever(true)).build();
        assertEquals(new ShareInfo("physics", "alice", 2, 10, 0.5, 3600.7, 0.25, 0.3, 0.8, Map.of("cpu", 5400.0),
                new UsageInfo(12.5, -1, 400, false), new UsageInfo(0, 0, 0, true)), PriorityInfos.share(row));
    }

    @Test
    void anAccountsRow_withoutAmounts() {
        ShareInfo row = PriorityInfos.share(dev.gantry.api.v1.ShareRow.newBuilder().setAccount("root").build());
        assertEquals("", row.user());
        assertEquals(new UsageInfo(0, 0, 0, false), row.usageToHalve());
        assertEquals(Map.of(), row.tresRawUsage());
    }

    @Test
    void listsKeepTheControllersOrder() {
        assertEquals(List.of(3L, 1L), PriorityInfos.priorities(List.of(JobPriority.newBuilder().setJobId(3).build(),
                JobPriority.newBuilder().setJobId(1).build())).stream().map(PriorityInfo::jobId).toList());
        assertEquals(List.of("root", "physics"), PriorityInfos.shares(List.of(
                dev.gantry.api.v1.ShareRow.newBuilder().setAccount("root").build(),
                dev.gantry.api.v1.ShareRow.newBuilder().setAccount("physics").build())).stream()
                .map(ShareInfo::account).toList());
    }
}
