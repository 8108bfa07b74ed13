package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Normalized shares: raw shares over the siblings', times the parent's, down a 3-level tree. */
class AssociationTreeTest {

    private final AssociationTree tree = SlurmExample.tree();

    @ParameterizedTest(name = "{0}/{1} has {2} of the cluster")
    @CsvSource({
        "A, '', 0.4", "B, '', 0.3", "C, '', 0.1", "D, '', 0.6", "E, '', 0.25", "F, '', 0.35",
        "B, user1, 0.3", "C, user2, 0.05", "C, user3, 0.05", "E, user4, 0.25", "F, user5, 0.35",
        "root, '', 1.0",
    })
    void normalizedShares_matchSlurmsExample(String account, String user, double share) {
        assertEquals(share, tree.normShares(tree.node(Association.of(account, user))), 1e-12);
    }

    @Test
    void userShares_comeFromUserLines() {
        AssociationTree t = AssociationTree.of(SlurmExample.config("User=user2 Fairshare=4\n").accounting());
        assertEquals(0.08, t.normShares(t.node(Association.of("C", "user2"))), 1e-12, "Slurm: 4 of 5 shares of 0.1");
        assertEquals(0.02, t.normShares(t.node(Association.of("C", "user3"))), 1e-12);
        assertEquals(5, t.levelShares(t.node(Association.of("C", "user3"))));
    }

    @Test
    void usersAndSubAccounts_areSiblings() {
        AssociationTree t = AssociationTree.of(SlurmExample.config("Account=G Parent=A Fairshare=10 Users=u\n"
                + "Account=H Fairshare=0\n").accounting());
        // A's children: B 30, C 10, G 10
        assertEquals(0.4 * 10 / 50, t.normShares(t.node(Association.account("G"))), 1e-12);
        assertEquals(0, t.normShares(t.node(Association.account("H"))), "no shares: 0");
    }

    @Test
    void nodes_areInTreeOrder_withDepths() {
        List<String> order = new ArrayList<>();
        for (int n = 0; n < tree.size(); n++) {
            order.add(tree.depth(n) + ":" + tree.association(n));
        }
        assertEquals(List.of("0:root", "1:A", "2:B", "3:B/user1", "2:C", "3:C/user2", "3:C/user3", "1:D", "2:E",
                "3:E/user4", "2:F", "3:F/user5"), order);
    }

    @Test
    void nodeFor_fallsBackToTheAccountThenRoot() {
        assertEquals(tree.node(Association.of("B", "user1")), tree.nodeFor("B", "user1"));
        assertEquals(tree.node(Association.account("B")), tree.nodeFor("B", "stranger"));
        assertEquals(0, tree.nodeFor("nowhere", "stranger"));
        assertEquals(-1, tree.node(Association.account("nowhere")));
    }
}
