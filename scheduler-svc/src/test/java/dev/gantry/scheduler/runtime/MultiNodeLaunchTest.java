package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.FanoutTarget;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.TerminateJobRequest;
import dev.gantry.api.v1.TerminateJobResponse;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

    /** The agent of every node (one server: all nodes register its address). */
    static final class FakeAgent extends NodeAgentGrpc.NodeAgentImplBase {
        final List<LaunchJobRequest> launches = new CopyOnWriteArrayList<>();
        final List<TerminateJobRequest> terminates = new CopyOnWriteArrayList<>();
        volatile Status refusal;
        volatile String failedNode;
        /** What terminates answer: whether the job was running on the node. */
        volatile boolean wasRunning;

        @Override
        public void launchJob(LaunchJobRequest request, StreamObserver<LaunchJobResponse> out) {
            launches.add(request);
            if (refusal != null) {
                io.grpc.Metadata trailers = new io.grpc.Metadata();
                if (failedNode != null) {
                    trailers.put(JobLauncher.FAILED_NODE, failedNode);
                }
                out.onError(refusal.asRuntimeException(trailers));
                return;
            }
            out.onNext(LaunchJobResponse.newBuilder().setPid(100).build());
            out.onCompleted();
        }

        /** Signal, suspend and resume calls received, as "call:jobId[:signal]" (every node's agent is this one server). */
        final List<String> controls = new CopyOnWriteArrayList<>();

        @Override
        public void signalJob(dev.gantry.api.v1.SignalJobRequest request, StreamObserver<dev.gantry.api.v1.SignalJobResponse> out) {
            controls.add("signal:" + request.getJobId() + ":" + request.getSignal());
            out.onNext(dev.gantry.api.v1.SignalJobResponse.getDefaultInstance());
            out.onCompleted();
        }

        @Override
        public void suspendJob(dev.gantry.api.v1.SuspendJobRequest request, StreamObserver<dev.gantry.api.v1.SuspendJobResponse> out) {
            controls.add("suspend:" + request.getJobId());
            out.onNext(dev.gantry.api.v1.SuspendJobResponse.getDefaultInstance());
            out.onCompleted();
        }

        @Override
        public void resumeJob(dev.gantry.api.v1.ResumeJobRequest request, StreamObserver<dev.gantry.api.v1.ResumeJobResponse> out) {
            controls.add("resume:" + request.getJobId());
            out.onNext(dev.gantry.api.v1.ResumeJobResponse.getDefaultInstance());
            out.onCompleted();
        }

        @Override
        public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> out) {
            terminates.add(request);
            out.onNext(TerminateJobResponse.newBuilder().setWasRunning(wasRunning).build());
            out.onCompleted();
        }
    }

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

    static void await(String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("gave up waiting for: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
