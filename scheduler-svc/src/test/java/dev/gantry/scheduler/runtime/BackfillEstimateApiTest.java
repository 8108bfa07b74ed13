package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.runtime.TestWait.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.BackfillOutcome;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.Reservation;
import dev.gantry.api.v1.ResourceRequest;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.common.config.BackfillSettings;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.api.JobProtos;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the client API answers about the backfill pass's work, as scontrol shows it in Slurm: a job it estimated has its
 * StartTime, an EndTime of that start plus its time limit, the node count it expects (NumNodes), LastSchedEval = that
 * pass and Scheduler=Backfill:*; a job it started, Scheduler=Backfill with LastSchedEval = its start. The controller and
 * its scheduling loop are real; select-svc is a scripted fake.
 */
class BackfillEstimateApiTest {

    static final String CONFIG = """
            SchedulerType=sched/backfill
            NodeName=n[1-3] CPUs=2 RealMemory=4096
            PartitionName=p Nodes=n[1-3] Default=YES MaxTime=UNLIMITED
            """;

    /** Nobody starts in the main pass; backfill starts {@code small} on n3 and estimates {@code wide} on n[1-2]. */
    static final class ScriptedSelect extends SelectGrpc.SelectImplBase {
        volatile long wide;
        volatile long small;
        volatile Instant wideStart;

        @Override
        public void plan(PlanRequest request, StreamObserver<PlanResponse> out) {
            out.onNext(PlanResponse.getDefaultInstance()); // omit_priority: no placement = Priority
            out.onCompleted();
        }

        @Override
        public void earliestStarts(EarliestStartsRequest request, StreamObserver<EarliestStartsResponse> out) {
            EarliestStartsResponse.Builder r = EarliestStartsResponse.newBuilder().setTested(request.getJobsCount());
            for (ResourceRequest j : request.getJobsList()) {
                Reservation.Builder res = Reservation.newBuilder().setJobId(j.getJobId()).setPartition("p");
                if (j.getJobId() == wide) {
                    res.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_ESTIMATED).setReason(PendingReason.RESOURCES.slurmName())
                            .setStartTime(JobProtos.ts(wideStart))
                            .addNodes(NodeAllocation.newBuilder().setNode("n1"))
                            .addNodes(NodeAllocation.newBuilder().setNode("n2"));
                } else if (j.getJobId() == small) {
                    res.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_START_NOW)
                            .addNodes(NodeAllocation.newBuilder().setNode("n3").setCpus(1).setMemoryMb(100));
                } else {
                    res.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_NOT_TESTED);
                }
                r.addReservations(res);
            }
            out.onNext(r.build());
            out.onCompleted();
        }
    }

    final ScriptedSelect select = new ScriptedSelect();
    ControllerApiRig rig;
    InProcessSelect selectService;
    SchedulingLoop loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
        selectService.close();
        rig.close();
    }

    long submit(int nodes) {
        JobSpec.Builder spec = JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(600).setMinNodes(nodes);
        return rig.api().submitJob(SubmitJobRequest.newBuilder().setSpec(spec).build()).getJobId();
    }

    Job job(long id) {
        return rig.api().getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
    }

    @Test
    void backfillsEstimateAndStart_showAsSlurmShowsThem() throws Exception {
        rig = new ControllerApiRig(CONFIG);
        ControllerHarness h = rig.harness();
        h.registerNodes("n1", "n2", "n3");
        selectService = new InProcessSelect(select);
        Instant submitted = h.now.get();
        select.wide = submit(2);
        select.small = submit(1);
        Instant pass = submitted.plusSeconds(7);
        h.now.set(pass);
        select.wideStart = pass.plusSeconds(1234); // say, the end of a running job's limit

        Job before = job(select.wide);
        assertEquals(submitted, JobProtos.instant(before.getLastSchedEval()), "no pass yet: its submission");
        assertEquals(false, before.getSchedByBackfill());

        loop = new SchedulingLoop(h.controller.passes, selectService.channel, 60_000, BackfillSettings.DEFAULTS.withIntervalSeconds(1));
        h.controller.setScheduleTrigger(loop::trigger);
        await("backfill starts the small job", () -> job(select.small).getState() == JobState.JOB_STATE_RUNNING);
        // the start wakes a main pass, which clears the backfill mark (as Slurm's does); the next backfill pass sets it
        await("a backfill pass is the last to estimate the wide job", () -> job(select.wide).getSchedInLastBackfill());

        Job wide = job(select.wide);
        assertEquals(select.wideStart, JobProtos.instant(wide.getStartTime()));
        assertEquals(select.wideStart.plusSeconds(600), JobProtos.instant(wide.getEndTime()), "EndTime = start + limit");
        assertEquals(2, wide.getNumNodes());
        assertEquals(pass, JobProtos.instant(wide.getLastSchedEval()));
        assertTrue(wide.getSchedByBackfill(), "Scheduler=Backfill:*");

        Job small = job(select.small);
        assertEquals(pass, JobProtos.instant(small.getLastSchedEval()), "the pass that started it");
        assertTrue(small.getSchedByBackfill() && !small.getSchedInLastBackfill(), "Scheduler=Backfill");
    }
}
