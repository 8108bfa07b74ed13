package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.placement.Owner;
import org.junit.jupiter.api.Test;

/** The per-node owner summary: who may join a node's jobs, and from when, as jobs come and go. */
class NodeOwnersTest {

    private static final Owner ALICE_ONLY = new Owner("alice", true);
    private static final Owner ALICE = new Owner("alice", false);
    private static final Owner BOB_ONLY = new Owner("bob", true);
    private static final Owner BOB = new Owner("bob", false);

    @Test
    void anEmptyNodeExcludesNoOne() {
        assertFalse(NodeOwners.EMPTY.excludes(ALICE_ONLY));
        assertEquals(Long.MIN_VALUE, NodeOwners.EMPTY.freeFrom(ALICE_ONLY));
    }

    @Test
    void aUserExclusiveJobExcludesOtherUsers_untilItEnds() {
        NodeOwners node = NodeOwners.EMPTY.with(ALICE_ONLY, 100).with(ALICE, 300);

        assertTrue(node.excludes(BOB));
        assertTrue(node.excludes(BOB_ONLY));
        assertFalse(node.excludes(ALICE));
        assertFalse(node.excludes(ALICE_ONLY));
        assertEquals(100, node.freeFrom(BOB), "alice's ordinary job does not keep bob's ordinary job out");
        assertEquals(300, node.freeFrom(BOB_ONLY), "bob's user-exclusive job waits for all of alice's");
        assertEquals(Long.MIN_VALUE, node.freeFrom(ALICE_ONLY));
    }

    @Test
    void ordinaryJobsOfTwoUsersKeepOutOnlyUserExclusiveJobs() {
        NodeOwners node = NodeOwners.EMPTY.with(ALICE, 100).with(BOB, 200);

        assertFalse(node.excludes(ALICE));
        assertTrue(node.excludes(ALICE_ONLY), "bob is here");
        assertTrue(node.excludes(BOB_ONLY), "alice is here");
        assertEquals(200, node.freeFrom(ALICE_ONLY));
        assertEquals(Long.MIN_VALUE, node.freeFrom(BOB));
    }

    @Test
    void whenTheLastJobOfAUserGoes_itsExclusionGoesWithIt() {
        NodeOwners node = NodeOwners.EMPTY.with(ALICE_ONLY, 100).with(ALICE_ONLY, 200).with(BOB, 50);

        NodeOwners oneLeft = node.without(ALICE_ONLY);
        assertTrue(oneLeft.excludes(new Owner("carol", false)), "alice still has a user-exclusive job here");
        NodeOwners aliceGone = oneLeft.without(ALICE_ONLY);
        assertFalse(aliceGone.excludes(new Owner("carol", false)));
        assertTrue(aliceGone.excludes(ALICE_ONLY), "bob's job is still here");
        assertSame(NodeOwners.EMPTY, aliceGone.without(BOB));
        assertSame(aliceGone, aliceGone.without(ALICE), "a user with no job here changes nothing");
    }
}
