package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.ClusterConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The controller's fair-share entry points: charge, table, sshare rows, snapshot and restore. */
class FairShareTest {

    private static final Instant T0 = SlurmExample.T0;

    private static ClusterConfig config() {
        return SlurmExample.config("""
                QOS=cheap UsageFactor=0.5
                PriorityDecayHalfLife=1-0
                TRESBillingWeights=CPU=1.0,Mem=0.25G
                FairShareType=linear
                """);
    }

    @Test
    void charge_appliesBillingWeightsAndQosUsageFactor() {
        FairShare fs = FairShare.of(config());
        fs.charge("B", "user1", "cheap", TresAmount.of(4, 8 * 1024, 1), 3600, T0);
        fs.charge("B", "user1", "normal", TresAmount.of(1, 0, 1), 100, T0);
        assertEquals((4 + 2) * 3600 * 0.5 + 100, fs.ledger().usage(Association.of("B", "user1"), T0), 1e-9);
        assertEquals(4 * 3600 * 0.5 + 100, fs.ledger().usage(Association.of("B", "user1"), "cpu", T0), 1e-9);
    }

    @Test
    void shares_areSshareRowsInTreeOrder() {
        FairShare fs = FairShare.of(config());
        fs.charge("B", "user1", 20, T0);
        fs.charge("C", "user2", 25, T0);
        fs.charge("E", "user4", 25, T0);
        fs.charge("E", "user4", "normal", TresAmount.of(2, 0, 1), 15, T0);
        List<ShareRow> rows = fs.shares(T0);
        assertEquals(12, rows.size());
        assertEquals("root", rows.get(0).account());
        ShareRow user1 = rows.get(3);
        assertEquals("B", user1.account());
        assertEquals("user1", user1.user());
        assertEquals(3, user1.depth());
        assertEquals(1, user1.rawShares());
        assertEquals(0.3, user1.normShares(), 1e-12);
        assertEquals(20, user1.rawUsage(), 1e-9);
        assertEquals(0.2, user1.normUsage(), 1e-9);
        // A = 0.45 (45 of 100), B = 0.2 + (0.45 - 0.2) * 30/40 = 0.3875 as Slurm's example
        assertEquals(0.3875, user1.effectiveUsage(), 1e-9);
        assertEquals(1 - 0.3875 / 0.6, user1.fairShare(), 1e-9);
        assertTrue(user1.toHalve().billingSeconds() > 0);
        // root: U_E = 1 at S = 1 whatever is charged, so linear 0.5, and no amount halves or zeroes it
        assertEquals(0.5, rows.get(0).fairShare(), 1e-12);
        assertTrue(rows.get(0).toHalve().never());
        assertTrue(rows.get(0).toZero().never());
        assertTrue(user1.toZero().billingSeconds() > user1.toHalve().billingSeconds());
        ShareRow user4 = rows.get(9);
        assertEquals(Map.of("cpu", 30.0, "node", 15.0), user4.tresRawUsage());
        assertEquals("linear", fs.algorithm().name());
    }

    @Test
    void usage_decaysWithTheConfiguredHalfLife_andSurvivesARestart() {
        FairShare fs = FairShare.of(config());
        fs.charge("B", "user1", 1000, T0);
        UsageSnapshot saved = fs.snapshot(T0.plusSeconds(86400));
        FairShare restarted = FairShare.of(config(), saved);
        assertEquals(250, restarted.table(T0.plusSeconds(2 * 86400)).rawUsage(
                restarted.tree().node(Association.of("B", "user1"))), 1e-9);
        FairShare reconfigured = fs.reconfigured(SlurmExample.config("PriorityDecayHalfLife=0"), T0);
        assertEquals(1000, reconfigured.ledger().usage(Association.of("B", "user1"), T0.plusSeconds(10 * 86400)),
                1e-9, "no decay after the reconfiguration");
    }
}
