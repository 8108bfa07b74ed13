package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.TresWeights;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How much more usage halves an association's factor, and zeroes it where the form allows. */
class UsageHeadroomTest {

    private static final TresBilling BILLING =
            new TresBilling(TresWeights.parse("CPU=2.0,Mem=0.5G,GRES/gpu=100"), false);

    /** Four equal top-level accounts with one user each; alice's account used 100, the others 300 together. */
    private static FairShareTable table(FairShareCurve curve) {
        var config = ConfigParser.parse(Path.of("t.conf"),
                "Account=a Users=alice\nAccount=b Users=bob\nAccount=c Users=carol\nAccount=d Users=dan\n");
        AssociationTree tree = AssociationTree.of(config.accounting());
        UsageLedger ledger = new UsageLedger(0);
        ledger.charge("a", "alice", 100, SlurmExample.T0);
        ledger.charge("b", "bob", 300, SlurmExample.T0);
        return new EffectiveUsageFairShare(curve).compute(tree, ledger.usageByNode(tree, SlurmExample.T0));
    }

    private static int alice(FairShareTable t) {
        return t.tree().node(Association.of("a", "alice"));
    }

    @ParameterizedTest(name = "{0}: the amount found halves the factor, and a little less does not")
    @CsvSource({"CLASSIC", "LINEAR"})
    void toHalve_isTheLeastAmountThatHalves(FairShareCurve curve) {
        FairShareTable t = table(curve);
        int node = alice(t);
        double x = UsageHeadroom.of(t, node, BILLING).toHalve().billingSeconds();
        double target = t.factor(node) / 2;
        assertEquals(target, t.algorithm().factorWith(t, node, x), 1e-9);
        assertTrue(t.algorithm().factorWith(t, node, x * 0.999) > target);
    }

    @Test
    void linear_closedForm() {
        // alice: S = 0.25, U = (100 + x) / (400 + x); linear F = 1 - U/0.5 = 1 - 2U.
        // now U = 0.25, F = 0.5; halving to 0.25 needs U = 0.375: x = 80; zero needs U = 0.5: x = 200.
        FairShareTable t = table(FairShareCurve.LINEAR);
        UsageHeadroom h = UsageHeadroom.of(t, alice(t), BILLING);
        assertEquals(80, h.toHalve().billingSeconds(), 1e-6);
        assertEquals(200, h.toZero().billingSeconds(), 1e-6);
        assertFalse(h.toZero().never());
        // through the billing weights: 2 per CPU-second, 0.5 per GiB-second, 100 per GPU-second
        assertEquals(80 / 2.0 / 3600, h.toHalve().cpuHours(), 1e-12);
        assertEquals(80 / 0.5 / 3600, h.toHalve().gbHours(), 1e-9);
        assertEquals(80 / 100.0 / 3600, h.toHalve().gpuHours(), 1e-12);
    }

    @Test
    void classic_neverReachesZero() {
        FairShareTable t = table(FairShareCurve.CLASSIC);
        UsageHeadroom h = UsageHeadroom.of(t, alice(t), BILLING);
        assertTrue(h.toZero().never());
        assertFalse(h.toHalve().never());
        // classic F = 2^(-U/0.25): now 2^-1; halving needs U = 0.5: (100 + x)/(400 + x) = 0.5, x = 200
        assertEquals(200, h.toHalve().billingSeconds(), 1e-6);
    }

    @Test
    void halvingBeyondWhatNormalizationAllows_isNever() {
        // bob alone used everything: U = 1 already, and more usage cannot raise it; his classic factor 2^-4 stays
        var config = ConfigParser.parse(Path.of("t.conf"), "Account=a Users=alice\nAccount=b Users=bob\n"
                + "Account=c Users=carol\nAccount=d Users=dan\n");
        AssociationTree tree = AssociationTree.of(config.accounting());
        UsageLedger ledger = new UsageLedger(0);
        ledger.charge("b", "bob", 300, SlurmExample.T0);
        FairShareTable t = new EffectiveUsageFairShare(FairShareCurve.CLASSIC)
                .compute(tree, ledger.usageByNode(tree, SlurmExample.T0));
        assertTrue(UsageHeadroom.of(t, tree.node(Association.of("b", "bob")), BILLING).toHalve().never());
    }

    @Test
    void aTresWithoutBillingWeight_cannotDoItAlone() {
        FairShareTable t = table(FairShareCurve.LINEAR);
        UsageHeadroom h = UsageHeadroom.of(t, alice(t), TresBilling.CPUS);
        assertEquals(80 / 3600.0, h.toHalve().cpuHours(), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, h.toHalve().gpuHours());
        assertEquals(Double.POSITIVE_INFINITY, h.toHalve().gbHours());
    }
}
