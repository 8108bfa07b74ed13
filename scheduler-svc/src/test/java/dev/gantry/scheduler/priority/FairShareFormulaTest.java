package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Factors for given usage histories match the formulas exactly, in both forms. */
class FairShareFormulaTest {

    @ParameterizedTest(name = "{0}: U={1} S={2} gives {3}")
    @CsvSource({
        "CLASSIC, 0,    0.25, 1.0",
        "CLASSIC, 0.25, 0.25, 0.5",
        "CLASSIC, 0.5,  0.25, 0.25",
        "CLASSIC, 1.0,  0.25, 0.0625",
        "CLASSIC, 0.1,  0.4,  0.8408964152537145",
        "CLASSIC, 0.5,  0,    0.0",
        "LINEAR,  0,    0.25, 1.0",
        "LINEAR,  0.125,0.25, 0.75",
        "LINEAR,  0.25, 0.25, 0.5",
        "LINEAR,  0.375,0.25, 0.25",
        "LINEAR,  0.5,  0.25, 0.0",
        "LINEAR,  0.9,  0.25, 0.0",
        "LINEAR,  0.5,  0,    0.0",
    })
    void curve(FairShareCurve curve, double effectiveUsage, double normShares, double factor) {
        assertEquals(factor, curve.factor(effectiveUsage, normShares), 1e-15);
    }

    /** Slurm's page: effective usage and factors of its example, and the linear form's on the same usage. */
    @ParameterizedTest(name = "{0}/{1}: U_E={2}, classic {3}, linear {4}")
    @CsvSource({
        "A, '',    0.45,   0.4585020",      // 2^(-.45/.4)
        "B, '',    0.3875, 0.4084788",
        "C, '',    0.3,    0.125",
        "E, '',    0.25,   0.5",
        "F, '',    0.1458333333, 0.7491535",
        "B, user1, 0.3875, 0.408479",
        "C, user2, 0.275,  0.022097",
        "C, user3, 0.15,   0.125",
        "E, user4, 0.25,   0.5",
        "F, user5, 0.1458333333, 0.749154",
    })
    void slurmsWorkedExample(String account, String user, double effective, double classic) {
        AssociationTree tree = SlurmExample.tree();
        double[] usage = SlurmExample.usage().usageByNode(tree, SlurmExample.T0);
        FairShareTable c = new EffectiveUsageFairShare(FairShareCurve.CLASSIC).compute(tree, usage);
        FairShareTable l = new EffectiveUsageFairShare(FairShareCurve.LINEAR).compute(tree, usage);
        int node = tree.node(Association.of(account, user));
        double share = tree.normShares(node);
        assertEquals(effective, c.effectiveUsage(node), 1e-9);
        assertEquals(classic, c.factor(node), 5e-7);
        assertEquals(Math.max(0, 1 - effective / (2 * share)), l.factor(node), 1e-9);
        assertEquals(c.effectiveUsage(node), l.effectiveUsage(node), "the form changes the factor only");
    }

    @ParameterizedTest(name = "linear {0}/{1} = {2}")
    @CsvSource({"B, user1, 0.3541666667", "C, user2, 0", "C, user3, 0", "E, user4, 0.5", "F, user5, 0.7916666667"})
    void slurmsExample_linearForm(String account, String user, double factor) {
        AssociationTree tree = SlurmExample.tree();
        FairShareTable l = new EffectiveUsageFairShare(FairShareCurve.LINEAR)
                .compute(tree, SlurmExample.usage().usageByNode(tree, SlurmExample.T0));
        assertEquals(factor, l.factor(account, user), 1e-9);
    }

    @ParameterizedTest(name = "{0} with no usage: every factor is 1")
    @CsvSource({"CLASSIC", "LINEAR"})
    void noUsage_givesOne(FairShareCurve curve) {
        AssociationTree tree = SlurmExample.tree();
        FairShareTable t = new EffectiveUsageFairShare(curve).compute(tree, new double[tree.size()]);
        for (int n = 0; n < tree.size(); n++) {
            assertEquals(1.0, t.factor(n), tree.association(n).toString());
            assertEquals(0, t.normUsage(n));
        }
    }

    @ParameterizedTest(name = "{0}: a sole user at exactly its share gets 0.5")
    @CsvSource({"CLASSIC", "LINEAR"})
    void usageAtTheShare_givesOneHalf(FairShareCurve curve) {
        // two top accounts with equal shares, equal usage: each used exactly its half
        var config = dev.gantry.common.config.ConfigParser.parse(java.nio.file.Path.of("t.conf"),
                "Account=x Users=u\nAccount=y Users=v\n");
        AssociationTree tree = AssociationTree.of(config.accounting());
        UsageLedger ledger = new UsageLedger(0);
        ledger.charge("x", "u", 500, SlurmExample.T0);
        ledger.charge("y", "v", 500, SlurmExample.T0);
        FairShareTable t = new EffectiveUsageFairShare(curve).compute(tree, ledger.usageByNode(tree, SlurmExample.T0));
        assertEquals(0.5, t.factor("x", "u"), 1e-15);
        assertEquals(0.5, t.factor("y", "v"), 1e-15);
    }
}
