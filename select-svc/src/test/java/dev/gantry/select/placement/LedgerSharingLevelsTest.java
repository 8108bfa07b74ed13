package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.placement.NodeDemand;
import dev.gantry.placement.Owner;
import dev.gantry.select.fixture.DomainCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a ledger offers at each sharing level (units held by at most L jobs of the partition), and that it follows every
 * change to the node: n1 has 4 cores, partition p is OverSubscribe=FORCE:3, job 100 holds cores 0 and 1.
 */
class LedgerSharingLevelsTest {

    private final Ledger ledger = Ledger.base(DomainCluster.consTres("CR_Core").node("n1", 4, 0).partition("p", "n1")
            .oversubscribe("p", "FORCE:3").runningOnUnits(100, "p", "n1", 0, 0, 1).view()).copy();

    private static NodeDemand cores(int cpus, int level) {
        return new NodeDemand(cpus, 0, 0, List.of(), false, 3, "p", Owner.NONE, level);
    }

    @Test
    void level0_offersTheFreeCores_level1_alsoThoseHeldOnce() {
        assertEquals(2, ledger.availableCpus(0, cores(1, 0)));
        assertEquals(4, ledger.availableCpus(0, cores(1, 1)));
        assertFalse(ledger.admits(0, cores(3, 0)));
        assertTrue(ledger.admits(0, cores(3, 1)));
    }

    @Test
    void aTakeAtALevel_usesFreeCoresFirst_andTheLevelsFollowIt() {
        assertEquals(4, ledger.availableCpus(0, cores(1, 1)), "read before the takes");

        assertEquals("{2, 3}", ledger.take(1, 0, cores(2, 0)).units().toString());
        assertEquals(0, ledger.availableCpus(0, cores(1, 0)));
        assertEquals(4, ledger.availableCpus(0, cores(1, 1)));

        assertEquals("{0, 1}", ledger.take(2, 0, cores(2, 1)).units().toString());
        assertEquals(2, ledger.availableCpus(0, cores(1, 1)), "cores 0 and 1 are held twice now");
        assertEquals(4, ledger.availableCpus(0, cores(1, 2)));

        ledger.release(100);
        assertEquals(4, ledger.availableCpus(0, cores(1, 1)), "job 100 gone: every core is held once");
    }

    @Test
    void aCopy_andItsOrigin_goTheirOwnWays() {
        assertEquals(4, ledger.availableCpus(0, cores(1, 1)), "read before the copy");
        Ledger copy = ledger.copy();

        ledger.take(1, 0, cores(4, 1));

        assertEquals(2, ledger.availableCpus(0, cores(1, 1)), "cores 2, 3 held once, 0 and 1 twice");
        assertEquals(4, copy.availableCpus(0, cores(1, 1)));
        assertEquals(2, copy.availableCpus(0, cores(1, 0)));
    }
}
