package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.runtime.TestWait.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.FanoutTarget;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A multi-node job's launch from a real controller to a fake agent: one LaunchJob, to the batch host, carrying the
 * other nodes and TreeWidth; a fan-out failure ends the job with the node in its reason; when the job ends, its
 * other nodes' parts are terminated.
 */
class MultiNodeLaunchTest {

    ControllerHarness h;
    FakeAgent agent = new FakeAgent();
    Server server;

    @BeforeEach
    void start() throws Exception {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()).addService(agent).build().start();
        h = new ControllerHarness("""
                TreeWidth=2
                NodeName=n[1-3] CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n[1-3] Default=YES MaxTime=60 State=UP
                """);
        h.register("127.0.0.1:" + server.getPort(), "n1", "n2", "n3");
    }

    @AfterEach
    void stop() {
        h.close();
        server.shutdownNow();
    }

    long startOnThreeNodes() {
        return startOnThreeNodes(true);
    }

    long startOnThreeNodes(boolean requeue) {
        long id = h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).setMinNodes(3).setRequeue(requeue).build())).join();
        h.controller.call(() -> {
            h.controller.passes.start(h.controller.state.job(id), dev.gantry.scheduler.lifecycle.Start.Placement.of("debug",
                    List.of(new NodeShare("n1", 4, 100), new NodeShare("n2", 2, 200), new NodeShare("n3", 1, 300))));
            return null;
        }).join();
        return id;
    }

    @Test
    void theControllerSendsOneLaunch_toTheBatchHost_withTheOtherNodesAndTreeWidth() {
        long id = startOnThreeNodes();
        await("the launch", () -> agent.launches.size() == 1);

        LaunchJobRequest r = agent.launches.get(0);
        assertEquals(id, r.getJobId());
        assertEquals("n1", r.getBatchHost());
        assertEquals(2, r.getTreeWidth());
        assertEquals(4, r.getCpusOnNode());
        assertEquals(List.of("n2:2:200", "n3:1:300"), r.getForwardToList().stream()
                .map(t -> t.getNode() + ":" + t.getCpusOnNode() + ":" + t.getMemoryMb()).toList());
        assertTrue(r.getForwardToList().stream().map(FanoutTarget::getAddress).allMatch(a -> a.equals("127.0.0.1:" + server.getPort())));
        assertEquals(1, agent.launches.size(), "exactly one LaunchJob");
    }

    @Test
    void anUnreachableNodeOfTheTree_endsTheJobNodeFail_namingIt_andEndsTheOtherParts() {
        agent.refusal = Status.ABORTED.withDescription("node n3: agent unreachable: connection refused");
        agent.failedNode = "n3";
        long id = startOnThreeNodes(false);

        await("the job ends", () -> h.job(id).state() == JobState.NODE_FAIL);
        assertEquals("launch failed: node n3: agent unreachable: connection refused", h.job(id).reason());
        await("the other nodes' parts are terminated", () -> agent.terminates.size() == 2);
        assertTrue(h.controller.call(() -> h.controller.state.node("n3").notResponding()).join(), "n3 is kept out of placements");
        assertTrue(!h.controller.call(() -> h.controller.state.node("n2").notResponding()).join());
    }

    @Test
    void anUnreachableNodeOfTheTree_requeuesARequeueableJob() {
        agent.refusal = Status.ABORTED.withDescription("node n3: agent unreachable: connection refused");
        agent.failedNode = "n3";
        long id = startOnThreeNodes(true);

        await("the job is back in the queue", () -> h.job(id).state() == JobState.PENDING);
        assertEquals(1, h.job(id).controls().restartCount());
        assertTrue(h.controller.call(() -> h.controller.state.node("n3").notResponding()).join());
    }

    @Test
    void aNodeThatRefusesItsPart_failsTheJob_withItsReason() {
        agent.refusal = Status.PERMISSION_DENIED.withDescription("node n2: credential expired");
        long id = startOnThreeNodes();

        await("the job ends", () -> h.job(id).state() == JobState.FAILED);
        assertEquals("launch failed: node n2: credential expired", h.job(id).reason());
    }

    @Test
    void whenTheBatchScriptEnds_theOtherNodesPartsAreTerminated() {
        long id = startOnThreeNodes();
        await("the launch", () -> agent.launches.size() == 1);

        h.controller.lifecycle.reportExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode("n1").setExitCode(0).build()).join();

        assertEquals(JobState.COMPLETED, h.job(id).state());
        await("n2's and n3's parts are terminated", () -> agent.terminates.size() == 2);
        assertTrue(agent.terminates.stream().allMatch(t -> t.getJobId() == id));
    }
}
