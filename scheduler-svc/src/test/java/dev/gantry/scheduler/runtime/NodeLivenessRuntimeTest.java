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
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Liveness judged fairly, through the controller's real NodeTracker: a pause of the controller itself (seen on its
 * monotonic clock, here the harness's) gives every node a fresh SlurmdTimeout window; a node set DOWN for not
 * responding is asked to register again instead of being revived by a heartbeat, and its registration returns it to
 * service; a heartbeat's list of runs is reconciled (orphan runs terminated by run, missing parts gone past a grace).
 */
class NodeLivenessRuntimeTest {

    static final String CONFIG = """
            SlurmdTimeout=10
            JobRequeue=1
            NodeName=n[1-2] CPUs=4 RealMemory=8192
            PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
            """;

    ControllerHarness h;
    NodeTracker nodes;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness(CONFIG);
        h.registerNodes("n1", "n2");
        nodes = h.controller.nodes;
    }

    @AfterEach
    void stop() {
        h.close();
    }

    long submit() {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice")
                .setUid(1000).setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).build())).join();
    }

    long runningOn(String node) {
        long id = submit();
        h.startOn(id, "debug", new NodeShare(node, 4, 1024, List.of(0, 1, 2, 3), List.of()));
        return id;
    }

    /** {@code seconds} pass on both clocks: the wall clock and the controller's monotonic one. */
    void elapse(long seconds) {
        h.now.set(h.now.get().plusSeconds(seconds));
        h.nanos.addAndGet(Duration.ofSeconds(seconds).toNanos());
    }

    /** One tick of the controller's timer. */
    void tick() {
        h.controller.run(nodes::checkTimeouts).join();
    }

    /** Time passes tick by tick ({@code seconds} of them), both nodes heartbeating as a healthy agent does. */
    void healthyFor(long seconds) {
        for (int i = 0; i < seconds; i++) {
            elapse(1);
            nodes.heartbeat("n1").join();
            nodes.heartbeat("n2").join();
            tick();
        }
    }

    NodeRecord node(String name) {
        return h.controller.call(() -> h.controller.state.node(name)).join();
    }

    double count(String name, String... tags) {
        Counter c = h.registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aControllerPausedLongerThanSlurmdTimeout_setsNoNodeDown_andCountsThePause() {
        long id = runningOn("n1");
        healthyFor(2);

        elapse(30); // frozen: no heartbeat handled, no tick ran
        tick();

        assertFalse(node("n1").notResponding());
        assertFalse(node("n2").notResponding());
        assertEquals(JobState.RUNNING, h.job(id).state());
        assertEquals(1, count("gantry_controller_pauses_total"));
        assertEquals(30.0, h.registry.find("gantry_controller_last_pause_seconds").gauge().value(), 0.01);
    }

    @Test
    void afterAPause_aNodeThatStaysSilent_isSetDownOneFullWindowLater() {
        long id = runningOn("n1");
        healthyFor(2);
        elapse(30);
        tick(); // the pause: a fresh window from now

        for (int i = 0; i < 10; i++) { // n2 heartbeats, n1 stays silent for exactly SlurmdTimeout
            elapse(1);
            nodes.heartbeat("n2").join();
            tick();
        }
        assertFalse(node("n1").notResponding(), "10 s of silence since the pause: not yet past SlurmdTimeout");

        elapse(1);
        nodes.heartbeat("n2").join();
        tick();
        assertTrue(node("n1").notResponding());
        assertFalse(node("n2").notResponding());
        assertEquals(JobState.PENDING, h.job(id).state(), "requeued (JobRequeue=1)");
    }

    @Test
    void withoutAPause_theSameSilenceSetsTheNodeDown() {
        healthyFor(2);
        h.now.set(h.now.get().plusSeconds(30)); // the wall clock moves, the controller kept ticking (no gap)
        tick();
        assertTrue(node("n1").notResponding());
        assertTrue(node("n2").notResponding());
        assertEquals(0, count("gantry_controller_pauses_total"));
        assertEquals(2, count("gantry_nodes_not_responding_total"));
    }

    @Test
    void afterARestart_aNodeWhoseAgentNeverComesBack_isSetDownOneWindowAfterTheStart_andItsJobRequeued() throws Exception {
        long onN1 = runningOn("n1");
        long onN2 = runningOn("n2");
        h.close(); // the controller goes away; the store keeps its jobs RUNNING
        h = new ControllerHarness(CONFIG, h.store, h.controller.stateStore);
        nodes = h.controller.nodes;
        h.registerNodes("n2"); // n2's agent comes back with its job; n1's never does

        for (int i = 0; i < 10; i++) {
            elapse(1);
            nodes.heartbeat("n2").join();
            tick();
        }
        assertFalse(node("n1").notResponding(), "one SlurmdTimeout from the start is not over yet");
        elapse(1);
        nodes.heartbeat("n2").join();
        tick();

        assertTrue(node("n1").notResponding());
        assertEquals(JobState.PENDING, h.job(onN1).state(), "requeued (JobRequeue=1)");
        assertEquals(JobState.RUNNING, h.job(onN2).state());
        assertFalse(node("n2").notResponding());
    }

    @Test
    void aNodeSetDown_isAskedToRegisterAgain_andItsRegistrationTerminatesTheRequeuedRun_andReturnsIt() {
        long id = runningOn("n1");
        healthyFor(1);
        for (int i = 0; i < 11; i++) { // n1 frozen past SlurmdTimeout
            elapse(1);
            nodes.heartbeat("n2").join();
            tick();
        }
        assertTrue(node("n1").notResponding());
        assertEquals(JobState.PENDING, h.job(id).state());

        assertEquals("", nodes.heartbeat("n1", Map.of(), Map.of(id, 0)).join(), "register again");
        assertTrue(node("n1").notResponding(), "a heartbeat does not revive it");
        assertEquals(1, count("gantry_heartbeats_register_again_total", "reason", "not_responding"));

        int before = h.agent.terminates.size();
        RegisterNodeRequest r = RegisterNodeRequest.newBuilder().setNode("n1").setAgentAddress(h.agentAddress)
                .setHardware(NodeHardware.newBuilder().setCpus(4).setRealMemoryMb(8192)).addRunningJobIds(id)
                .addRunningJobs(RunningJob.newBuilder().setJobId(id).setRestartCount(0)).build();
        assertTrue(nodes.register(r).join() instanceof NodeTracker.Accepted);

        assertFalse(node("n1").notResponding());
        assertTrue(node("n1").usable(), "back in service");
        await("the run left from before is terminated", () -> h.agent.terminates.size() > before);
        TerminateJobRequest t = h.agent.terminates.get(before);
        assertEquals(id, t.getJobId());
        assertEquals(0, t.getRestartCount());
        assertEquals(1, count("gantry_nodes_returned_total"));
        assertFalse(nodes.heartbeat("n1").join().isEmpty(), "its heartbeats count again");
    }

    @Test
    void aHeartbeatListingARunTheNodeNoLongerHas_terminatesThatRun_andKeepsTheCurrentOnes() {
        long kept = runningOn("n1");
        long elsewhere = runningOn("n2");
        int before = h.agent.terminates.size();

        // n1 lists its own job, n2's job (a run that is not its), and a job the controller never had
        nodes.heartbeat("n1", Map.of(), Map.of(kept, 0, elsewhere, 0, 777L, 0)).join();

        await("two orphan runs are terminated", () -> h.agent.terminates.size() >= before + 2);
        List<Long> terminated = h.agent.terminates.subList(before, h.agent.terminates.size()).stream()
                .map(TerminateJobRequest::getJobId).sorted().toList();
        assertEquals(List.of(elsewhere, 777L), terminated);
        assertEquals(JobState.RUNNING, h.job(kept).state());
        assertEquals(JobState.RUNNING, h.job(elsewhere).state());
        assertEquals(2, count("gantry_orphan_runs_terminated_total", "reason", "heartbeat"));
    }

    @Test
    void aCompletingJobsPartMissingFromHeartbeats_isGoneOnlyPastTheLaunchGrace() {
        long id = runningOn("n1");
        h.controller.lifecycle.cancel(List.of(id)).join(); // its terminate is answered, its end not reported yet
        assertTrue(h.job(id).completing());

        elapse(2);
        nodes.heartbeat("n1", Map.of(), Map.of()).join();
        assertTrue(h.job(id).completing(), "started 2 s ago: the heartbeat may predate its launch");

        elapse(60);
        nodes.heartbeat("n1", Map.of(), Map.of()).join();
        assertFalse(h.job(id).completing(), "missing past the grace: nothing of it is left on n1");
        assertEquals(1, count("gantry_job_parts_missing_total"));
    }
}
