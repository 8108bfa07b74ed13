package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.ConfigParser;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Invariants over random association trees and usage (seeded, so every failure reproduces): shares of siblings add
 * up to their parent's, factors stay within 0..1, the one-node what-if agrees with the whole-table computation, and
 * more usage never raises a factor.
 */
class FairSharePropertiesTest {

    private static final int CASES = 200;

    /** A random tree: up to 6 top accounts, some with sub-accounts, 0–4 users each, random shares and usage. */
    private static FairShareTable randomTable(SplittableRandom r, FairShareCurve curve) {
        StringBuilder conf = new StringBuilder();
        int accounts = 1 + r.nextInt(6);
        int user = 0;
        for (int a = 0; a < accounts; a++) {
            String parent = a > 0 && r.nextBoolean() ? " Parent=a" + r.nextInt(a) : "";
            conf.append("Account=a").append(a).append(parent).append(" Fairshare=").append(r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(50));
            int users = r.nextInt(5);
            for (int u = 0; u < users; u++) {
                conf.append(u == 0 ? " Users=" : ",").append("u").append(user++);
            }
            conf.append('\n');
        }
        for (int u = 0; u < user; u++) {
            conf.append("User=u").append(u).append(" Fairshare=").append(1 + r.nextInt(9)).append('\n');
        }
        AssociationTree tree = AssociationTree.of(ConfigParser.parse(Path.of("random.conf"), conf.toString()).accounting());
        UsageLedger ledger = new UsageLedger(0);
        for (int n = 0; n < tree.size(); n++) {
            Association a = tree.association(n);
            if (a.isUser() && r.nextInt(3) > 0) {
                ledger.charge(a.account(), a.user(), r.nextDouble() * 1e6, SlurmExample.T0);
            }
        }
        return new EffectiveUsageFairShare(curve).compute(tree, ledger.usageByNode(tree, SlurmExample.T0));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CLASSIC", "LINEAR"})
    void siblingsShares_addUpToTheirParents(FairShareCurve curve) {
        SplittableRandom r = new SplittableRandom(1);
        for (int c = 0; c < CASES; c++) {
            AssociationTree tree = randomTable(r, curve).tree();
            double[] childSum = new double[tree.size()];
            boolean[] hasSharedChild = new boolean[tree.size()];
            for (int n = 1; n < tree.size(); n++) {
                childSum[tree.parent(n)] += tree.normShares(n);
                hasSharedChild[tree.parent(n)] |= tree.levelShares(n) > 0;
            }
            for (int n = 0; n < tree.size(); n++) {
                if (hasSharedChild[n]) {
                    assertEquals(tree.normShares(n), childSum[n], 1e-12, "case " + c + " node " + tree.association(n));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CLASSIC", "LINEAR"})
    void whatIfWithNoExtra_agreesWithTheTable_andMoreUsageNeverRaisesAFactor(FairShareCurve curve) {
        SplittableRandom r = new SplittableRandom(2);
        for (int c = 0; c < CASES; c++) {
            FairShareTable t = randomTable(r, curve);
            for (int n = 0; n < t.tree().size(); n++) {
                String where = "case " + c + " node " + t.tree().association(n);
                double f = t.factor(n);
                assertTrue(f >= 0 && f <= 1, where);
                assertEquals(f, t.algorithm().factorWith(t, n, 0), 1e-12, where);
                double previous = f;
                for (double extra = 1; extra < 1e9; extra *= 7) {
                    double next = t.algorithm().factorWith(t, n, extra);
                    assertTrue(next <= previous + 1e-12, where + " extra " + extra);
                    previous = next;
                }
            }
        }
    }
}
