package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The controller checks gang-svc's decisions before it applies them: one made on a view older than the job's latest
 * allocation change is refused, and a resume that would overlap a running job of the same or a higher PriorityTier is
 * refused whatever its revision — a stale resume never runs two overlapping jobs.
 */
class GangDecisionChecksTest {

    static final String GANG_CONFIG = """
                SelectType=select/cons_tres
                SelectTypeParameters=CR_Core_Memory
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                NodeName=n[1-2] CPUs=4 CoresPerSocket=4 RealMemory=8192
                PartitionName=low Nodes=n[1-2] Default=YES MaxTime=60 State=UP OverSubscribe=FORCE:2 PriorityTier=1
                PartitionName=high Nodes=n[1-2] MaxTime=60 State=UP OverSubscribe=FORCE:2 PriorityTier=2
                """;

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        start(GANG_CONFIG);
    }

    void start(String config) throws Exception {
        if (h != null) {
            stop();
        }
        h = new ControllerHarness(config);
        h.registerNodes("n1", "n2");
    }

    @AfterEach
    void stop() {
        h.close();
    }

    /** Starts a new job in {@code partition} on n1's cores {@code cores} through the controller's own start. */
    long started(String partition, Integer... cores) {
        long id = h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).addPartitions(partition).build())).join();
        h.startOn(id, partition, new NodeShare("n1", cores.length, 512, List.of(cores), List.of()));
        return id;
    }

    LaunchJobRequest launchOf(long id) {
        TestWait.await("the launch of job " + id, () -> h.agent.launches.stream().anyMatch(r -> r.getJobId() == id));
        return h.agent.launches.stream().filter(r -> r.getJobId() == id).findFirst().orElseThrow();
    }

    @Test
    void aJobStartedOntoTheCoresOfARunningJob_startsSuspended_andItsLaunchSaysSo() {
        long first = started("low", 0, 1);
        long second = started("low", 1, 2);

        assertEquals(JobState.RUNNING, h.job(first).state());
        assertEquals(JobState.SUSPENDED, h.job(second).state());
        assertFalse(launchOf(first).getStartSuspended());
        assertTrue(launchOf(second).getStartSuspended());
        assertTrue(h.agent.controls.isEmpty(), "no separate suspend that could race the launch: " + h.agent.controls);
    }

    @Test
    void aJobStartedOnFreeCores_orOverALowerTier_startsRunning() {
        started("low", 0, 1);
        long beside = started("low", 2, 3);
        long over = started("high", 0, 1);             // a preemptor: the lower-tier job is gang-svc's to suspend

        assertEquals(JobState.RUNNING, h.job(beside).state());
        assertEquals(JobState.RUNNING, h.job(over).state());
        assertFalse(launchOf(over).getStartSuspended());
    }

    @Test
    void withoutGangScheduling_jobsSharingCoresAllRun() throws Exception {
        start(GANG_CONFIG.replace("PreemptType=preempt/partition_prio\n", "").replace("PreemptMode=SUSPEND,GANG\n", ""));
        started("low", 0, 1);
        long second = started("low", 1, 2);

        assertEquals(JobState.RUNNING, h.job(second).state());
        assertFalse(launchOf(second).getStartSuspended());
    }

    long revision() {
        return h.controller.call(() -> h.controller.events.revision()).join();
    }

    @Test
    void aDecisionMadeBeforeTheJobsLatestChange_isRefused_andTheSameOnTheNewViewApplies() {
        long id = started("low", 0, 1);
        long before = revision();
        h.slice(List.of(id), List.of());                 // published: the job changed at before + 1

        var stale = h.controller.gang.applySlice(before, List.of(), List.of(id)).join();

        assertEquals(List.of(id), stale.refused());
        assertEquals(JobState.SUSPENDED, h.job(id).state());
        assertEquals(List.of(id), h.slice(List.of(), List.of(id)).resumed());
        assertEquals(JobState.RUNNING, h.job(id).state());
    }

    @Test
    void aResumeOntoTheCoresOfARunningJobOfTheSamePartition_isRefused_butASwapInOneCallApplies() {
        long first = started("low", 0, 1);
        long second = started("low", 1, 2);            // onto a core of the first: suspended from its start

        var refused = h.slice(List.of(), List.of(second));

        assertEquals(List.of(second), refused.refused());
        assertEquals(JobState.SUSPENDED, h.job(second).state());
        assertEquals(JobState.RUNNING, h.job(first).state());
        var swap = h.slice(List.of(first), List.of(second));
        assertEquals(List.of(first), swap.suspended());
        assertEquals(List.of(second), swap.resumed());
    }

    @Test
    void aResumeOnOtherCores_applies() {
        started("low", 0, 1);
        long other = started("low", 2, 3);
        h.slice(List.of(other), List.of());

        assertEquals(List.of(other), h.slice(List.of(), List.of(other)).resumed());
    }

    @Test
    void aLowerTierJobIsNotResumedUnderAHigherTierJob_butAHigherTierJobIsResumedOverALowerOne() {
        long low = started("low", 0, 1);
        h.slice(List.of(low), List.of());                // suspended under a preemptor
        long high = started("high", 0, 1);

        assertEquals(List.of(low), h.slice(List.of(), List.of(low)).refused());

        h.slice(List.of(high), List.of());
        // meanwhile gang-svc resumes the low job (its shadow is gone); the high job is resumed over it all the same
        assertEquals(List.of(low), h.slice(List.of(), List.of(low)).resumed());
        assertEquals(List.of(high), h.slice(List.of(), List.of(high)).resumed());
    }
}
