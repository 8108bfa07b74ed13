package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.runtime.TestWait.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.NodeHardware;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a multi-node job ends (Slurm: COMPLETING until every node's epilog_complete): the batch host's report gives the
 * job its final state, but every node stays allocated to it until each node has shown that nothing of the job is left
 * there (its own exit report, a terminate answered "not running here", or a registration without the job).
 */
class MultiNodeEndTest {

    private static final String CONFIG = """
            NodeName=n[1-3] CPUs=4 RealMemory=8192
            PartitionName=debug Nodes=n[1-3] Default=YES MaxTime=60 State=UP
            """;

    final FakeAgent agent = new FakeAgent();
    Server server;
    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()).addService(agent).build().start();
        h = new ControllerHarness(CONFIG);
        agent.wasRunning = true; // each node runs its part until it reports its end
        for (String n : List.of("n1", "n2", "n3")) {
            register(h, n);
        }
    }

    @AfterEach
    void stop() {
        h.close();
        server.shutdownNow();
    }

    @Test
    void theBatchScriptsEnd_givesTheFinalState_butEveryNodeStaysAllocated_untilEachOtherNodeReportsItsPartGone() {
        long id = startOnThreeNodes();
        report(id, "n1", 3);

        JobRecord ended = h.job(id);
        assertEquals(JobState.FAILED, ended.state());
        assertEquals(3, ended.exitCode());
        assertTrue(ended.completing(), "CG while the other nodes' parts are killed");
        await("n2's and n3's parts are terminated", () -> agent.terminates.size() == 2);
        assertEquals(List.of(4, 2, 1), allocCpus(), "every node is still allocated to the job");

        report(id, "n3", 0);
        assertTrue(h.job(id).completing());
        assertEquals(List.of(4, 2, 1), allocCpus());

        report(id, "n2", 0);
        assertFalse(h.job(id).completing(), "nothing of the job is left anywhere");
        assertEquals(JobState.FAILED, h.job(id).state());
        assertEquals(List.of(0, 0, 0), allocCpus());
    }

    @Test
    void aCancelledJob_whoseOtherNodesEndFirst_isReleasedWithTheBatchHostsReport() {
        long id = startOnThreeNodes();
        h.controller.lifecycle.cancel(List.of(id)).join();
        await("every node is told to terminate", () -> agent.terminates.size() == 3);

        report(id, "n2", 0);
        report(id, "n3", 0);
        assertTrue(h.job(id).completing(), "the batch host has not reported yet");
        assertEquals(List.of(4, 2, 1), allocCpus());

        report(id, "n1", 0);
        assertEquals(JobState.CANCELLED, h.job(id).state());
        assertFalse(h.job(id).completing());
        assertEquals(List.of(0, 0, 0), allocCpus());
    }

    @Test
    void aJobPastItsTimeLimit_endsTimeout_andKeepsItsNodes_untilEveryNodesPartIsGone() {
        long id = startOnThreeNodes();
        h.now.set(h.now.get().plusSeconds(3600));
        h.controller.run(h.controller.lifecycle::enforceTimeLimits).join();
        await("every node is told to terminate", () -> agent.terminates.size() == 3);

        report(id, "n1", 0);
        report(id, "n3", 0);
        assertEquals(JobState.TIMEOUT, h.job(id).state());
        assertTrue(h.job(id).completing());
        assertEquals(List.of(4, 2, 1), allocCpus());

        report(id, "n2", 0);
        assertFalse(h.job(id).completing());
        assertEquals(List.of(0, 0, 0), allocCpus());
    }

    @ParameterizedTest(name = "requeueable: {0}")
    @ValueSource(booleans = {false, true})
    void aJobWhoseNodeGoesDown_endsNodeFailOrIsRequeued_onceTheOtherNodesPartsAreGone(boolean requeue) {
        long id = startOnThreeNodes(requeue);
        NodeTracker nodes = h.controller.nodes;
        h.now.set(h.now.get().plusSeconds(3600)); // past SlurmdTimeout for n3, which stays silent
        nodes.heartbeat("n1").join();
        nodes.heartbeat("n2").join();
        h.controller.run(nodes::checkTimeouts).join();

        JobRecord j = h.job(id);
        assertEquals(requeue ? JobState.PENDING : JobState.NODE_FAIL, j.state());
        assertTrue(j.completing(), "n1 and n2 still kill their parts");
        await("n1 and n2 are told to terminate", () -> agent.terminates.size() == 2);
        assertEquals(List.of(4, 2, 1), allocCpus());

        report(id, "n1", 0);
        assertTrue(h.job(id).completing());
        report(id, "n2", 0);
        assertFalse(h.job(id).completing());
        assertEquals(requeue ? JobState.PENDING : JobState.NODE_FAIL, h.job(id).state());
        assertEquals(requeue ? 1 : 0, h.job(id).controls().restartCount());
        assertEquals(List.of(0, 0, 0), allocCpus());
    }

    @Test
    void aNodeAnsweringThatTheJobDoesNotRunThere_hasNothingLeftToWaitFor() {
        agent.wasRunning = false;
        long id = startOnThreeNodes();
        report(id, "n1", 0);

        await("released once n2 and n3 answered their terminate", () -> !h.job(id).completing());
        assertEquals(JobState.COMPLETED, h.job(id).state());
        assertEquals(List.of(0, 0, 0), allocCpus());
    }

    @Test
    void aJobRequeuedWhileRunning_goesBackToTheQueue_onlyOnceEveryNodesPartIsGone() {
        long id = startOnThreeNodes();
        h.controller.commands.requeue(List.of(id), "alice", false).join();
        assertEquals(JobState.PENDING, h.job(id).state());

        report(id, "n1", 0);
        report(id, "n2", 0);
        assertTrue(h.job(id).completing());
        assertEquals(List.of(4, 2, 1), allocCpus());

        report(id, "n3", 0);
        assertFalse(h.job(id).completing());
        assertEquals(JobState.PENDING, h.job(id).state());
        assertEquals(List.of(0, 0, 0), allocCpus());
    }

    @Test
    void afterAControllerRestart_aCompletingJobIsReleased_onceEveryNodeWithAPartRegistersWithoutIt() throws Exception {
        long id = startOnThreeNodes();
        report(id, "n1", 0);
        assertTrue(h.job(id).completing());
        h.close(); // the controller goes away while n2 and n3 still kill their parts

        h = new ControllerHarness(CONFIG, h.store, h.controller.stateStore);
        NodeTracker nodes = h.controller.nodes;
        assertEquals(List.of(4, 2, 1), allocCpus(), "the restarted controller holds the nodes of the completing job");
        register(nodes, "n1", List.of());
        register(nodes, "n2", List.of(id)); // still killing its part
        register(nodes, "n3", List.of());
        assertTrue(h.job(id).completing());

        register(nodes, "n2", List.of()); // n2's part is gone (its exit report is re-sent, acknowledged without effect)
        assertFalse(h.job(id).completing());
        assertEquals(JobState.COMPLETED, h.job(id).state());
        assertEquals(List.of(0, 0, 0), allocCpus());
    }

    private long startOnThreeNodes() {
        return startOnThreeNodes(true);
    }

    private long startOnThreeNodes(boolean requeue) {
        long id = h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).setMinNodes(3).setRequeue(requeue).build())).join();
        h.controller.run(() -> h.controller.passes.start(h.controller.state.job(id), dev.gantry.scheduler.lifecycle.Start.Placement.of("debug",
                List.of(new NodeShare("n1", 4, 100), new NodeShare("n2", 2, 200), new NodeShare("n3", 1, 300))))).join();
        await("the launch", () -> agent.launches.size() == 1);
        return id;
    }

    private void report(long id, String node, int exitCode) {
        h.controller.lifecycle.reportExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode(node).setExitCode(exitCode).build()).join();
    }

    private List<Integer> allocCpus() {
        return h.controller.call(() -> List.of("n1", "n2", "n3").stream().map(n -> h.controller.state.node(n).allocCpus()).toList()).join();
    }

    private void register(ControllerHarness harness, String node) {
        harness.register("127.0.0.1:" + server.getPort(), node);
    }

    private void register(NodeTracker nodes, String node, List<Long> running) {
        nodes.register(RegisterNodeRequest.newBuilder().setNode(node).setAgentAddress("127.0.0.1:" + server.getPort())
                .setHardware(NodeHardware.newBuilder().setCpus(4).setRealMemoryMb(8192)).addAllRunningJobIds(running).build()).join();
    }
}
