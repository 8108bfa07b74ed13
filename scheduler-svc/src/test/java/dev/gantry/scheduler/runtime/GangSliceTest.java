package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

/** gang-svc's ApplySlice through a real controller: state, suspended-time accounting and the time limit. */
class GangSliceTest {

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                NodeName=n[1-2] CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP OverSubscribe=FORCE:2
                """);
        h.registerNodes("n1");
    }

    @AfterEach
    void stop() {
        h.close();
    }

    long running() {
        long id = h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).build())).join();
        h.startOn(id, "debug", new NodeShare("n1", 4, 0));
        return id;
    }

    void advance(long seconds) {
        h.now.set(h.now.get().plusSeconds(seconds));
    }

    @Test
    void suspendThenResume_accountsTheSuspendedTime_andShowsRunTimeWithoutIt() {
        long id = running();
        advance(30);
        assertEquals(List.of(id), h.slice(List.of(id), List.of()).suspended());
        assertEquals(JobState.SUSPENDED, h.job(id).state());
        assertEquals(JobState.SUSPENDED, h.store.jobs.get(id).state()); // durable before the answer
        advance(100);
        assertEquals(List.of(id), h.slice(List.of(), List.of(id)).resumed());
        advance(10);
        JobRecord j = h.job(id);
        assertEquals(JobState.RUNNING, j.state());
        assertEquals(100, j.suspendedSeconds());
        var p = JobProtos.toProto(j);
        assertEquals(100, p.getSuspendSeconds());
        assertEquals(30, p.getRunSeconds()); // up to the resume (last_state_change); the client adds the rest
    }

    @Test
    void whatNoLongerApplies_isSkipped() {
        long id = running();
        var r = h.slice(List.of(999L), List.of(id)); // unknown; and resuming a running job
        assertEquals(List.of(999L, id), r.skipped());
        assertEquals(JobState.RUNNING, h.job(id).state());
    }

    @Test
    void timeSuspended_doesNotCountAgainstTheTimeLimit() {
        long id = running();
        advance(50);
        h.slice(List.of(id), List.of());
        advance(100);
        h.slice(List.of(), List.of(id));
        advance(5); // 55 s of running: within the 60 s limit
        h.controller.run(h.controller.lifecycle::enforceTimeLimits).join();
        assertEquals(JobState.RUNNING, h.job(id).state());
        advance(6); // 61 s of running
        h.controller.run(h.controller.lifecycle::enforceTimeLimits).join();
        assertEquals(JobState.TIMEOUT, h.job(id).state());
    }

    @Test
    void requeueingASuspendedJob_countsTheSuspensionAsSuspendedTime() {
        long id = running();
        h.slice(List.of(id), List.of());
        advance(100);
        var result = h.controller.commands.requeue(List.of(id), "alice", false).join().get(0);
        assertEquals(true, result.getOk(), result.getError());
        JobRecord j = h.job(id);
        assertEquals(JobState.PENDING, j.state());
        assertEquals(100, j.suspendedSeconds());
    }
}
