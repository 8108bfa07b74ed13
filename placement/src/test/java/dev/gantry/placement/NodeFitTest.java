package dev.gantry.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The per-node rule, on one node of 2 sockets × 2 cores × 2 threads (8 CPUs), 1000 MiB and 2 GPUs, under CR_Core_Memory. */
class NodeFitTest {

    private static final Owner ALICE = new Owner("alice", false);
    private static final Owner BOB = new Owner("bob", false);

    private static NodeUse node() {
        return new NodeUse("n1", CpuLayout.of(8, 2, 2), 1000, List.of(new GresPool("gpu", "a100", 2)), true,
                Consumables.of(false, "CR_Core_Memory"));
    }

    private static NodeDemand demand(long cpus, long memPerCpu, int maxShare, String partition, Owner owner) {
        return new NodeDemand(cpus, memPerCpu * cpus, memPerCpu, List.of(), false, maxShare, partition, owner);
    }

    private static HeldShare holding(String partition, int... cores) {
        BitSet units = new BitSet();
        for (int c : cores) {
            units.set(c);
        }
        return new HeldShare(partition, cores.length * 2, 0, units, Map.of(), false, ALICE, false);
    }

    @Test
    void memoryPerCpu_isChargedOnTheWholeCoresTaken() {
        NodeDemand oneCpu = demand(1, 300, 1, "p", ALICE);
        assertEquals(600, oneCpu.memoryTaken(CpuLayout.of(8, 2, 2), ResourceUnit.CORE), "1 CPU takes a 2-thread core");
        assertEquals(300, oneCpu.memoryTaken(CpuLayout.of(8, 2, 2), ResourceUnit.CPU));
        NodeUse n = node();
        n.hold(new HeldShare("p", 2, 500, new BitSet(), Map.of(), false, ALICE, false));
        assertEquals(NodeFit.Misfit.MEMORY, NodeFit.misfit(n, 0, oneCpu), "600M charged, 500M free");
    }

    @Test
    void unitsAreSharedOnlyWithinAPartition_upToItsCount() {
        NodeUse n = node();
        n.hold(holding("p", 0, 1, 2, 3));
        assertEquals(NodeFit.Misfit.CPUS, NodeFit.misfit(n, 0, demand(2, 0, 2, "q", ALICE)), "held by partition p");
        assertEquals(null, NodeFit.misfit(n, 0, demand(2, 0, 2, "p", ALICE)), "FORCE:2 in p");
        n.hold(holding("p", 0, 1, 2, 3));
        assertEquals(NodeFit.Misfit.CPUS, NodeFit.misfit(n, 0, demand(2, 0, 2, "p", ALICE)), "each core held twice");
    }

    @Test
    void wholeNodes_andUserExclusivity() {
        NodeUse n = node();
        n.hold(holding("p", 0));
        assertEquals(NodeFit.Misfit.NOT_IDLE, NodeFit.misfit(n, 0,
                new NodeDemand(1, 0, 0, List.of(), true, 1, "p", ALICE)));
        assertEquals(NodeFit.Misfit.OTHER_USER, NodeFit.misfit(n, 0, demand(1, 0, 1, "p", new Owner("bob", true))));
        assertEquals(null, NodeFit.misfit(n, 0, demand(1, 0, 1, "p", BOB)), "neither is user-exclusive");
        n.hold(new HeldShare("p", 8, 0, new BitSet(), Map.of(), true, ALICE, false));
        assertEquals(NodeFit.Misfit.HELD_WHOLE, NodeFit.misfit(n, 0, demand(1, 0, 4, "p", ALICE)));
    }

    @Test
    void aJobBeingSuspended_freesItsCores_notItsMemoryOrGpus() {
        NodeUse n = node();
        n.hold(new HeldShare("low", 8, 600, new BitSet(), Map.of(0, 2), false, BOB, true));
        OfferedShare offer = new OfferedShare("n1", 8, 400, List.of(0, 1, 2, 3), List.of());
        NodeDemand asked = new NodeDemand(8, 400, 0, List.of(), false, 1, "hi", ALICE);
        assertEquals(Optional.empty(), ShareCheck.check(n, asked, offer));
        assertEquals(Optional.of("node n1 has 400M free, not 401M (401M needed)"), ShareCheck.check(n,
                new NodeDemand(8, 401, 0, List.of(), false, 1, "hi", ALICE), new OfferedShare("n1", 8, 401, List.of(), List.of())));
        assertEquals(Optional.of("node n1 has 0 free gpu:a100, not 1"), ShareCheck.check(n, asked,
                new OfferedShare("n1", 8, 400, List.of(), List.of(new OfferedShare.GresTaken("gpu", "a100", 1)))));
    }
}
