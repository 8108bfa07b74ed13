package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What scontrol show job gets about preemption: PreemptEligibleTime from the settings in force, and PreemptTime. */
class PreemptionFieldsTest {

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                PreemptType=preempt/partition_prio
                PreemptMode=REQUEUE
                PreemptExemptTime=5
                NodeName=n1 CPUs=4 RealMemory=8192
                PartitionName=low Nodes=n1 Default=YES MaxTime=60 State=UP PriorityTier=1
                PartitionName=high Nodes=n1 MaxTime=60 State=UP PriorityTier=2
                """);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    long submit() {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").build())).join();
    }

    @Test
    void aRunningJob_isPreemptableOncePreemptExemptTimeHasPassedSinceItsStart() {
        long id = submit();
        h.registerNodes("n1");
        h.startOn(id, "low", new NodeShare("n1", 1, 0));

        Job shown = h.controller.queries.findJob(id).join();

        assertEquals(h.now.get().plusSeconds(300).getEpochSecond(), shown.getPreemptEligibleTime().getSeconds());
        assertFalse(shown.hasPreemptTime());
        assertEquals(shown.getPreemptEligibleTime(), h.controller.queries.listJobs(JobQuery.of(
                dev.gantry.api.v1.ListJobsRequest.getDefaultInstance())).join().get(0).getPreemptEligibleTime());
    }

    @Test
    void aPendingJob_hasNoPreemptEligibleTime() {
        assertFalse(h.controller.queries.findJob(submit()).join().hasPreemptEligibleTime());
    }

    @Test
    void preemptTimeAndAnOperatorsSuspension_surviveTheStore() {
        long id = submit();
        JobRecord j = h.job(id).toBuilder().state(JobState.SUSPENDED, h.now.get()).adminSuspended(true)
                .preemptTime(h.now.get().minusSeconds(10)).build();

        JobRecord back = JobProtos.fromProto(JobProtos.toProto(j));

        assertTrue(back.adminSuspended());
        assertEquals(h.now.get().minusSeconds(10), back.preemptTime());
        assertFalse(back.toBuilder().state(JobState.RUNNING, h.now.get()).build().adminSuspended(),
                "only a SUSPENDED job can be an operator's suspension");
    }
}
