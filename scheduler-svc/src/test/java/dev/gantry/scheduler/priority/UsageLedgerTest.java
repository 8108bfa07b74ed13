package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Usage decays by elapsed time with PriorityDecayHalfLife, however irregularly it is charged or read. */
class UsageLedgerTest {

    private static final long DAY = 86400;
    private static final Instant T0 = SlurmExample.T0;
    private static final Association ALICE = Association.of("chem", "alice");

    private static Instant at(double halfLives) {
        return T0.plus(Duration.ofMillis(Math.round(halfLives * DAY * 1000)));
    }

    @ParameterizedTest(name = "after {0} half-lives 1000 reads {1}")
    @CsvSource({"0, 1000", "0.5, 707.1067811865476", "1, 500", "2, 250", "3, 125", "10, 0.9765625"})
    void usage_halvesEveryHalfLife(double halfLives, double expected) {
        UsageLedger ledger = new UsageLedger(DAY);
        ledger.charge(ALICE, UsageCharge.billing(1000), T0);
        assertEquals(expected, ledger.usage(ALICE, at(halfLives)), 1e-9);
    }

    @Test
    void irregularCharges_decayEachFromItsOwnTime() {
        UsageLedger ledger = new UsageLedger(DAY);
        double[] when = {0, 0.1, 0.35, 1, 2.5};
        double[] amount = {100, 40, 7, 300, 12};
        for (int i = 0; i < when.length; i++) {
            ledger.charge(ALICE, UsageCharge.billing(amount[i]), at(when[i]));
        }
        double expected = 0;
        for (int i = 0; i < when.length; i++) {
            expected += amount[i] * Math.pow(2, -(3 - when[i]));
        }
        assertEquals(expected, ledger.usage(ALICE, at(3)), 1e-9);
    }

    @Test
    void chargingEveryPeriod_equalsChargingOnceWithoutDecayInBetween_whenHalfLifeIsZero() {
        UsageLedger ledger = new UsageLedger(0);
        for (int i = 0; i < 10; i++) {
            ledger.charge("chem", "alice", 300, at(i));
        }
        assertEquals(3000, ledger.usage(ALICE, at(1000)), "PriorityDecayHalfLife=0: no decay");
    }

    @Test
    void farApartCharges_stayExactAcrossRebasing() {
        UsageLedger ledger = new UsageLedger(DAY);
        ledger.charge(ALICE, UsageCharge.billing(1e6), T0);
        ledger.charge(ALICE, UsageCharge.billing(5), at(100)); // 100 half-lives later: the ledger rebases
        assertEquals(5 + 1e6 * Math.pow(2, -100), ledger.usage(ALICE, at(100)), 1e-12);
        assertEquals(2.5 + 1e6 * Math.pow(2, -101), ledger.usage(ALICE, at(101)), 1e-12);
    }

    @Test
    void snapshot_restoresAndKeepsDecaying() {
        UsageLedger ledger = new UsageLedger(DAY);
        ledger.charge(ALICE, new UsageCharge(800, Map.of("cpu", 800.0, "mem", 4096.0)), T0);
        UsageSnapshot saved = ledger.snapshot(at(1));
        assertEquals(at(1), saved.asOf());
        assertEquals(Map.of("billing", 400.0, "cpu", 400.0, "mem", 2048.0), saved.usage().get(ALICE));

        UsageLedger restored = UsageLedger.restore(saved, DAY);
        assertEquals(200, restored.usage(ALICE, at(2)), 1e-9);
        assertEquals(1024, restored.usage(ALICE, "mem", at(2)), 1e-9);
        assertEquals(ledger.usage(ALICE, at(5)), restored.usage(ALICE, at(5)), 1e-9);
    }

    @Test
    void usageByNode_sumsAccountsAndCountsFormerAssociationsInRootOnly() {
        AssociationTree tree = SlurmExample.tree();
        double[] u = SlurmExample.usage().usageByNode(tree, T0);
        double[] expected = new double[tree.size()];
        expected[0] = 100;
        expected[tree.node(Association.account("A"))] = 45;
        expected[tree.node(Association.account("B"))] = 20;
        expected[tree.node(Association.of("B", "user1"))] = 20;
        expected[tree.node(Association.account("C"))] = 25;
        expected[tree.node(Association.of("C", "user2"))] = 25;
        expected[tree.node(Association.account("D"))] = 25;
        expected[tree.node(Association.account("E"))] = 25;
        expected[tree.node(Association.of("E", "user4"))] = 25;
        assertArrayEquals(expected, u);
    }

    @Test
    void neverCharged_readsZero() {
        assertEquals(0, new UsageLedger(DAY).usage(ALICE, T0));
    }
}
