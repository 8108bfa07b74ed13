package dev.gantry.select.placement;

import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.select.fixture.DomainCluster;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A victim preempted by SUSPEND frees its CPUs but keeps its memory and GRES (preempt.html, PreemptMode=SUSPEND,GANG):
 * the preemptor takes the cores and must fit beside the memory.
 */
class SuspendingTrialTest {

    /** n1: 2 cores, 1000 MiB; job 7 of partition low holds both cores and 600 MiB. */
    private static ReplicaView oneBusyNode() {
        return DomainCluster.consTres("CR_Core_Memory").nodes("n", 1, 2, 1000).partition("low", "n1")
                .partition("hi", "n1").running(7, "low", 2, 600, "n1").view();
    }

    private static ResourceRequest hiJob(long memoryMb) {
        return aJob(8).partitions("hi").tasks(2).mem(memoryMb).build();
    }

    @Test
    void aSuspendedVictimsCoresAreFree_butItsMemoryIsStillHeld() {
        StartTrial trial = new StartTrial(oneBusyNode()).suspending(List.of(7L));

        Optional<Placement.Start> fits = trial.startWithout(hiJob(400), List.of(7L));
        Optional<Placement.Start> tooBig = trial.startWithout(hiJob(401), List.of(7L));

        assertTrue(fits.isPresent(), "400 MiB fits beside the suspended job's 600");
        assertEquals(List.of("n1"), fits.get().nodes().stream().map(NodeAllotment::node).toList());
        assertTrue(tooBig.isEmpty(), "401 MiB does not fit beside the suspended job's 600 of 1000");
    }

    @Test
    void aVictimThatIsNotSuspendedFreesItsMemoryToo() {
        StartTrial trial = new StartTrial(oneBusyNode());

        assertTrue(trial.startWithout(hiJob(1000), List.of(7L)).isPresent());
    }

    @Test
    void aSuspendedVictimStillHoldsItsPlace_andFreeingItTwiceChangesNothing() {
        ReplicaView view = oneBusyNode();
        Ledger ledger = Ledger.base(view).copy();

        ledger.releaseCpus(7);
        ledger.releaseCpus(7);

        assertEquals(2, ledger.freeCpus(0));
        assertEquals(400, ledger.freeMemoryMb(0));
        assertEquals(1, ledger.sharesOf(7).size(), "it still holds its allocation");
        ledger.release(7);
        assertEquals(2, ledger.freeCpus(0));
        assertEquals(1000, ledger.freeMemoryMb(0));
    }
}
