package dev.gantry.gang.slice;

import dev.gantry.common.overlap.NodeShape;
import dev.gantry.common.overlap.OverlapRule;
import static dev.gantry.gang.slice.VirtualCluster.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.gang.model.PartitionJobs;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Decisions driven by events between slices, and how gang-svc deals with the controller's answers. */
class TimeslicerEventsTest {

    private final VirtualCluster cluster = VirtualCluster.slurmExample(new OverlapRule.WholeNodes());

    /**
     * Slurm's gang scheduler lets the running job finish its slice: a job suspended on arrival gets its first turn at
     * the first slice at least one whole slice after it came (Slurm 22.05 measured: 6.3–10.1 s with a 5 s slice).
     */
    @Test
    void aJobSuspendedOnArrival_firstRunsAfterTheRunningJobsWholeSlice() {
        cluster.start(1, nodes("n[12-16]"));
        cluster.slice();                 // nobody waits: nothing to do, 1 keeps running
        cluster.slice();
        cluster.start(2, nodes("n[12-16]"));
        assertEquals("R 1 S 2", cluster.state());

        cluster.slice();                 // the slice 2 arrived in is 1's
        assertEquals("R 1 S 2", cluster.state());
        cluster.slice();                 // a whole slice later, 2 has its turn
        assertEquals("R 2 S 1", cluster.state());
        cluster.slice();                 // and from then on they swap every slice
        assertEquals("R 1 S 2", cluster.state());
    }

    @Test
    void aReleasedJobLetsTheFirstWaitingJobResumeAtOnce() {
        cluster.start(1, nodes("n[12-16]"));
        cluster.start(2, nodes("n[12-16]"));
        cluster.start(3, nodes("n[12-16]"));
        cluster.advance(Duration.ofSeconds(10));

        SliceOutcome outcome = cluster.end(1);

        assertEquals(List.of(new PartitionDecision("active", List.of(), List.of(2L))), outcome.decisions());
        assertEquals(List.of(new SuspendedTime("active", Duration.ofSeconds(10))), outcome.suspensions());
        assertEquals("R 2 S 3", cluster.state());
    }

    @Test
    void aSuspendedJobThatEndsRecordsItsSuspendedTime() {
        cluster.start(1, nodes("n[12-16]"));
        cluster.start(2, nodes("n[12-16]"));
        cluster.advance(Duration.ofSeconds(7));

        assertEquals(List.of(new SuspendedTime("active", Duration.ofSeconds(7))), cluster.end(2).suspensions());
    }

    @Test
    void aSliceReportsTheRotatedPartitions_andNothingWhenNobodyWaits() {
        cluster.start(1, nodes("n[12-13]"));
        assertEquals(SliceOutcome.NONE, cluster.slice());

        cluster.start(2, nodes("n12"));
        SliceOutcome first = cluster.slice();      // 1 started between rotations: it keeps its slice
        SliceOutcome second = cluster.slice();

        assertEquals(List.of("active"), first.rotated());
        assertEquals(List.of(), first.decisions());
        assertEquals(List.of("active"), second.rotated());
        assertEquals(List.of(new PartitionDecision("active", List.of(1L), List.of(2L))), second.decisions());
    }

    @Test
    void decisionsTheControllerCouldNotTakeStayOutstanding_andAreSentAgain() {
        cluster.start(1, nodes("n[12-16]"));
        cluster.start(2, nodes("n[12-16]"));
        cluster.slice();                 // 1 keeps its first slice
        cluster.controllerUp(false);

        cluster.slice();
        assertEquals("R 1 S 2", cluster.state());
        assertEquals(List.of(new PartitionDecision("active", List.of(1L), List.of(2L))), cluster.slicer().outstanding());

        cluster.controllerUp(true);
        assertEquals("R 2 S 1", cluster.state());
        assertTrue(cluster.slicer().outstanding().isEmpty());
    }

    private static Timeslicer twoJobsOnOneNode() {
        Timeslicer slicer = Timeslicer.rebuild(new GangSettings(true, Duration.ofSeconds(30)), new OverlapRule.WholeNodes(),
                List.of(new NodeShape("n1", 8, 4)), List.of(new PartitionShape("p", 1, true)), List.of(), VirtualCluster.T0);
        slicer.allocationAdded(new Allocated(1, "p", nodes("n1"), false), VirtualCluster.T0);
        slicer.allocationAdded(new Allocated(2, "p", nodes("n1"), false), VirtualCluster.T0);
        return slicer;
    }

    @Test
    void aRequestOnItsWayIsNotSentAgainWhileItsEventIsAwaited() {
        Timeslicer slicer = twoJobsOnOneNode();
        assertEquals(List.of(new PartitionDecision("p", List.of(2L), List.of())), slicer.take());

        slicer.applied(List.of(2L), List.of(), List.of(), VirtualCluster.T0);

        assertEquals(List.of(), slicer.outstanding());
    }

    @Test
    void aFailedRequestIsOutstandingAgain() {
        Timeslicer slicer = twoJobsOnOneNode();
        List<PartitionDecision> sent = slicer.take();

        sent.forEach(slicer::failed);

        assertEquals(sent, slicer.outstanding());
    }

    /** The suspension's event arrives after gang-svc changed its mind: it is gang-svc's own, not an administrator's. */
    @Test
    void theEventOfAnEarlierRequestIsNotMistakenForSomeoneElses() {
        Timeslicer slicer = twoJobsOnOneNode();
        slicer.take();                                                    // suspend 2, on its way
        slicer.released(1, VirtualCluster.T0);                            // 2 may run again: nothing to send yet

        slicer.allocationChanged(new Allocated(2, "p", nodes("n1"), true), VirtualCluster.T0);  // the suspension lands

        assertEquals(List.of(new PartitionDecision("p", List.of(), List.of(2L))), slicer.outstanding());
        assertEquals(List.of(new PartitionJobs("p", List.of(2L), List.of(2L))), slicer.view());
    }

    @Test
    void aJobAnAdministratorSuspendsIsHeldOutOfRotation_untilResumed() {
        cluster.start(1, nodes("n[12-16]"));
        cluster.start(2, nodes("n[12-16]"));
        cluster.start(3, nodes("n[12-16]"));

        cluster.adminSuspend(1, true);
        assertEquals("R 2 S 1 3", cluster.state());
        cluster.slice();                 // 2 was resumed between rotations: it keeps its slice
        assertEquals("R 2 S 1 3", cluster.state());
        for (int slice = 0; slice < 4; slice++) {
            cluster.slice();
            assertEquals(slice % 2 == 0 ? "R 3 S 1 2" : "R 2 S 1 3", cluster.state());
        }

        // resumed by someone else, it joins between slices (Slurm's gs_job_start): the running job keeps its slice, so
        // 1 is suspended again at once, and has the next turn (it keeps its place at the front of the list)
        cluster.adminSuspend(1, false);
        assertEquals("R 2 S 1 3", cluster.state());
        cluster.slice();
        assertEquals("R 1 S 2 3", cluster.state());
    }

    @Test
    void aResumeTheControllerRefusesHoldsTheJobOut_soItIsNotAskedAgain() {
        cluster.start(1, nodes("n[12-16]"));
        cluster.start(2, nodes("n[12-16]"));
        cluster.adminSuspend(2, true);
        cluster.restart(false);          // gang-svc now believes 2 is its own suspension

        cluster.slice();                 // it asks to resume 2; the controller refuses; 1 is resumed at once

        assertEquals("R 1 S 2", cluster.state());
        assertTrue(cluster.slicer().outstanding().isEmpty());
    }

    @Test
    void getGangStateViewShowsTheListInRotationOrderAndTheActiveSet() {
        cluster.start(1, nodes("n[12-14]"));
        cluster.start(2, nodes("n[12-16]"));
        cluster.start(3, nodes("n[15-16]"));
        cluster.slice();                 // 1 and 3 started between rotations: they keep their places and slices
        assertEquals(List.of(new PartitionJobs("active", List.of(1L, 2L, 3L), List.of(1L, 3L))), cluster.slicer().view());
        cluster.slice();

        assertEquals(List.of(new PartitionJobs("active", List.of(2L, 1L, 3L), List.of(2L))), cluster.slicer().view());
    }
}
