package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The run time the client API answers (time_used_seconds: squeue TIME, scontrol RunTime): the controller computes it
 * when it answers, and time suspended never counts, the suspension in progress included (Slurm: a job that ran 2 s and
 * has been suspended 10 s shows 0:02).
 */
class RunTimeApiTest {

    ControllerApiRig rig;
    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        rig = new ControllerApiRig("""
                NodeName=n[1-2] CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
                """);
        h = rig.harness();
        h.registerNodes("n1");
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    long submit() {
        return rig.api().submitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder()
                .setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000).setGid(1000).setWorkDir("/tmp")
                .setTimeLimitSeconds(600)).build()).getJobId();
    }

    /** Starts a pending job on n1 now, as a pass would. */
    void startRunning(long id) {
        h.startOn(id, "debug", new NodeShare("n1", 4, 0));
    }

    void advance(long seconds) {
        h.now.set(h.now.get().plusSeconds(seconds));
    }

    long timeUsed(long id) {
        Job viaGet = rig.api().getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
        Job viaList = rig.api().listJobs(ListJobsRequest.newBuilder().addJobIds(id).build()).getJobs(0);
        assertEquals(viaGet.getTimeUsedSeconds(), viaList.getTimeUsedSeconds(), "GetJob and ListJobs agree");
        return viaGet.getTimeUsedSeconds();
    }

    @Test
    void timeSuspended_isNeverRunTime_duringTheSuspensionOrAfterIt() {
        long id = submit();
        advance(5);
        assertEquals(0, timeUsed(id), "pending");
        startRunning(id);
        advance(2);
        assertEquals(2, timeUsed(id), "running");

        h.slice(List.of(id), List.of());
        advance(10);
        assertEquals(2, timeUsed(id), "2 s run, then 10 s suspended");

        h.slice(List.of(), List.of(id));
        advance(3);
        assertEquals(5, timeUsed(id), "resumed 3 s ago");

        h.slice(List.of(id), List.of());
        advance(20);
        h.controller.lifecycle.cancel(List.of(id)).join(); // cancelled while suspended
        advance(50);
        assertEquals(5, timeUsed(id), "ended: up to its end, the last suspension excluded");
    }

    @Test
    void anOperatorsSuspension_isNotRunTimeEither() {
        long id = submit();
        startRunning(id);
        advance(7);
        assertEquals(true, h.controller.suspension.suspend(List.of(id), "root").join().get(0).getOk());
        advance(60);
        assertEquals(7, timeUsed(id));
    }
}
