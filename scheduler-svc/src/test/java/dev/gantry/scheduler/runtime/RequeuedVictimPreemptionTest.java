package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A REQUEUE victim that starts again before its preemptor fits (another partition's pass may start it, the main pass
 * blocking per partition) is a new run: the preemptor's next preemption pass preempts it again instead of waiting for
 * the old run's end, which had already come (before the fix the preemptor waited out the new run's whole time limit).
 */
class RequeuedVictimPreemptionTest {

    static final String CONFIG = """
            PreemptType=preempt/partition_prio
            PreemptMode=REQUEUE
            NodeName=n1 CPUs=2 RealMemory=1000
            PartitionName=low Nodes=n1 Default=YES PriorityTier=1 MaxTime=60
            PartitionName=hi Nodes=n1 PriorityTier=2 MaxTime=60
            """;

    final SuspendPreemptionGresTest.OverTheVictim select = new SuspendPreemptionGresTest.OverTheVictim();
    PreemptionRig rig;
    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        rig = new PreemptionRig(CONFIG, select);
        rig.agent.killsTakeTime = true; // a run preempted here stays completing until the test ends it
        h = rig.h;
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    /** Starts {@code id} on n1's two CPUs now, as a pass would. */
    void running(long id) {
        h.startOn(id, "low", new NodeShare("n1", 2, 0, List.of(), List.of()));
    }

    /** A running low job, a pending hi job over it, and a pass that has preempted the first (its ids and the pass). */
    private record Preempted(long victim, long hi, PreemptionPass pass) {}

    private Preempted preemptedOnce() throws InterruptedException {
        long victim = rig.submit("low");
        running(victim);
        select.victim = victim;
        long hi = rig.submit("hi");
        PreemptionPass pass = rig.pass();
        rig.preempt(pass, List.of(h.job(hi)));
        return new Preempted(victim, hi, pass);
    }

    @Test
    void aVictimRequeuedAndStartedAgain_isPreemptedAgain_notWaitedFor() throws Exception {
        Preempted p = preemptedOnce();
        long victim = p.victim();
        PreemptionPass pass = p.pass();
        long hi = p.hi();
        JobRecord first = h.job(victim);
        assertEquals(JobState.PENDING, first.state());
        assertTrue(first.completing(), "the first run is being killed");

        // the first run ended, and a pass started the requeued victim again before the preemptor fitted
        h.killed(victim);
        h.now.set(h.now.get().plusSeconds(5));
        running(victim);
        rig.preempt(pass, List.of(h.job(hi)));

        JobRecord second = h.job(victim);
        assertEquals(JobState.PENDING, second.state(), "the new run is preempted too: " + second);
        assertTrue(second.completing());
    }

    @Test
    void aRequeuedVictim_isHeldOutOfThePasses_whileItsPreemptorWaitsForAnotherVictim() throws Exception {
        long first = rig.submit("low");
        long second = rig.submit("low");
        running(first);
        running(second);
        select.victim = first;
        select.alsoVictim = second;
        long hi = rig.submit("hi");
        PreemptionPass pass = rig.pass();
        rig.preempt(pass, List.of(h.job(hi)));
        assertTrue(h.job(first).completing() && h.job(second).completing(), "both runs are being killed");

        // the first victim's processes are gone: it is back in the queue while the second still ends
        h.killed(first);

        assertEquals(JobState.PENDING, h.job(first).state());
        assertFalse(h.job(first).completing());
        assertEquals(java.util.Set.of(first, second), h.controller.call(pass::heldBack).join());
        assertFalse(h.controller.call(() -> h.controller.passes.queue().candidates().stream().map(JobRecord::id).toList())
                .join().contains(first), "a pass does not start it on the node its preemptor waits for");

        // the second is gone too: the preemptor no longer waits for anything, and the first is free to be placed
        h.killed(second);

        assertEquals(java.util.Set.of(), h.controller.call(pass::heldBack).join());
        assertTrue(h.controller.call(() -> h.controller.passes.queue().candidates().stream().map(JobRecord::id).toList())
                .join().containsAll(List.of(hi, first, second)));
    }

    @Test
    void aVictimStillEnding_isNotPreemptedTwice() throws Exception {
        Preempted p = preemptedOnce();
        JobRecord first = h.job(p.victim());

        rig.preempt(p.pass(), List.of(h.job(p.hi())));

        assertEquals(first, h.job(p.victim()), "a second pass leaves the run being killed alone");
    }
}
