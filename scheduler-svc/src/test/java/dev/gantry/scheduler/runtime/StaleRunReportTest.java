package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.runtime.TestWait.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.NodeHardware;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.RunningJob;
import dev.gantry.api.v1.TerminateJobRequest;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs have identities: an agent's exit report or usage names the run (restart count) it is about, and only the job's
 * current run may end it. A late report of an earlier run, or one naming a run that never was, is acknowledged,
 * changes nothing, and is counted in gantry_stale_run_reports_total.
 */
class StaleRunReportTest {

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                NodeName=n1 CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                """);
        h.registerNodes("n1");
    }

    @AfterEach
    void stop() {
        h.close();
    }

    long submit() {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice")
                .setUid(1000).setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).build())).join();
    }

    void startOnN1(long id) {
        h.startOn(id, "debug", new NodeShare("n1", 4, 1024, List.of(0, 1, 2, 3), List.of()));
    }

    /** A job in its second run (restart count 1) on n1: started, requeued, its first run's end reported, started again. */
    long inSecondRun() {
        long id = submit();
        startOnN1(id);
        assertEquals("", h.controller.commands.requeue(List.of(id), "alice", false).join().get(0).getError());
        h.finishRun(id, 0, 0); // the first run's processes are gone: back in the queue, one more restart
        assertEquals(1, h.job(id).controls().restartCount());
        startOnN1(id);
        assertEquals(JobState.RUNNING, h.job(id).state());
        return id;
    }

    double stale(String kind) {
        Counter c = h.registry.find("gantry_stale_run_reports_total").tag("kind", kind).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aLateExitReportOfTheFirstRun_doesNotEndTheSecond_andIsCounted() {
        long id = inSecondRun();

        h.finishRun(id, 0, 0); // acknowledged (join returns)

        assertEquals(JobState.RUNNING, h.job(id).state());
        assertFalse(h.job(id).completing());
        assertEquals(1, stale("exit"));
    }

    @Test
    void aReportNamingARunThatNeverWas_isIgnoredToo() {
        long id = inSecondRun();

        h.finishRun(id, 6, 0);

        assertEquals(JobState.RUNNING, h.job(id).state());
        assertEquals(1, stale("exit"));
    }

    @Test
    void theCurrentRunsReport_endsTheJob_uncounted() {
        long id = inSecondRun();

        h.finishRun(id, 1, 0);

        assertEquals(JobState.COMPLETED, h.job(id).state());
        assertEquals(0, stale("exit"));
    }

    @Test
    void aReportNamingNoRun_anOlderAgents_isTheCurrentRuns() {
        long id = inSecondRun();

        h.finish(id, 0);

        assertEquals(JobState.COMPLETED, h.job(id).state());
        assertEquals(0, stale("exit"));
    }

    @Test
    void usageOfAnotherRun_isCounted() {
        long id = inSecondRun();

        h.controller.nodes.heartbeat("n1", Map.of(id, 0)).join();
        h.controller.nodes.heartbeat("n1", Map.of(id, 1)).join();

        assertEquals(1, stale("usage"));
    }

    @Test
    void terminatesAndSignals_nameTheRun() {
        long id = inSecondRun();

        assertEquals("", h.controller.commands.signal(List.of(id), "alice", 10).join().get(0).getError());
        h.controller.lifecycle.cancel(List.of(id)).join();

        await("the signal and the terminate reach the agent", () -> !h.agent.signals.isEmpty()
                && h.agent.terminates.stream().filter(t -> t.getJobId() == id).count() == 2);
        assertEquals(1, h.agent.signals.get(0).getRestartCount(), "the signal names the second run");
        TerminateJobRequest first = h.agent.terminates.get(0);
        TerminateJobRequest last = h.agent.terminates.get(h.agent.terminates.size() - 1);
        assertTrue(first.hasRestartCount() && last.hasRestartCount());
        assertEquals(0, first.getRestartCount(), "the requeue's terminate named the first run");
        assertEquals(1, last.getRestartCount(), "scancel's names the second");
    }

    @Test
    void aRegistrationListingTheFirstRun_terminatesThatRun_andLeavesTheSecondRunning() {
        long id = inSecondRun();
        int before = h.agent.terminates.size();

        RegisterNodeRequest r = RegisterNodeRequest.newBuilder().setNode("n1").setAgentAddress(h.agentAddress)
                .setHardware(NodeHardware.newBuilder().setCpus(4).setRealMemoryMb(8192)).addRunningJobIds(id)
                .addRunningJobs(RunningJob.newBuilder().setJobId(id).setRestartCount(0)).build();
        h.controller.nodes.register(r).join();

        await("the first run is terminated", () -> h.agent.terminates.size() > before);
        TerminateJobRequest t = h.agent.terminates.get(before);
        assertEquals(0, t.getRestartCount(), "naming the first run");
        assertEquals(JobState.RUNNING, h.job(id).state());
        assertFalse(h.job(id).completing());
    }
}
