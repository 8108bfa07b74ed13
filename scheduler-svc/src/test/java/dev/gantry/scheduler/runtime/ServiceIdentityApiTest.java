package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ApplySliceRequest;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.WatchClusterEventsRequest;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.Peer;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.grpc.AgentHubGrpcService;
import dev.gantry.scheduler.grpc.ClusterEventsGrpcService;
import dev.gantry.scheduler.grpc.GangControlGrpcService;
import dev.gantry.scheduler.grpc.SchedulerInternalApi;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scheduler-svc's internal API as SchedulerInternalApi wires it, over real mutual TLS on loopback, replaying the attacks of
 * issue 15 with the certificates a compromised peer could hold: an agent speaking for another node, a service calling
 * what is not its to call. Each is PERMISSION_DENIED naming what was refused, and nothing changes.
 */
class ServiceIdentityApiTest {

    private static final String CONFIG = """
            NodeName=n[1-2] CPUs=4 RealMemory=4096
            PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
            """;

    @TempDir
    Path tmp;
    private CertificateDirectory certs;
    private ControllerHarness h;
    private InternalServer server;
    private final ExecutorService responses = Executors.newVirtualThreadPerTaskExecutor();
    private final List<ManagedChannel> channels = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        Instant now = Instant.now();
        certs = CertificateDirectory.open(tmp.resolve("tls"), "test", now);
        for (Peer p : List.of(Peer.SCHEDULER, Peer.SELECT, Peer.GANG, new Peer.Node("n1"), new Peer.Node("n2"))) {
            certs.issue(p, List.of(), now, Duration.ofDays(1));
        }
        h = new ControllerHarness(CONFIG);
        NodeTracker nodes = h.controller.nodes;
        server = SchedulerInternalApi.serve(InternalServer.on("127.0.0.1", 0, certs.load(Peer.SCHEDULER, now)).withHealth(),
                new AgentHubGrpcService(nodes, h.controller, responses), new GangControlGrpcService(h.controller, responses),
                new ClusterEventsGrpcService(h.controller.events, h.controller)).start();
    }

    @AfterEach
    void stop() {
        channels.forEach(ManagedChannel::shutdownNow);
        server.close();
        h.close();
        responses.shutdownNow();
    }

    @Test
    void anAgent_registersItsOwnNode() {
        hub(new Peer.Node("n1")).registerNode(registration("n1"));

        assertTrue(h.controller.call(() -> h.controller.state.node("n1").registered()).join());
    }

    @Test
    void anAgent_registeringAsAnotherNode_isRefused_andTheNodeKeepsItsAddress() {
        h.register("127.0.0.1:7001", "n2");

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> hub(new Peer.Node("n1")).registerNode(registration("n2")));

        assertDenied("gantry.v1.AgentHub/RegisterNode for node n2 refused: the caller's certificate names node n1; an agent "
                + "speaks only for its own node", e);
        assertEquals("127.0.0.1:7001", h.controller.call(() -> h.controller.state.node("n2").agentAddress()).join());
    }

    @Test
    void anAgent_heartbeatingForAnotherNode_isRefused() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> hub(new Peer.Node("n1")).heartbeat(HeartbeatRequest.newBuilder().setNode("n2").build()));

        assertDenied("gantry.v1.AgentHub/Heartbeat for node n2 refused: the caller's certificate names node n1; an agent "
                + "speaks only for its own node", e);
    }

    @Test
    void anAgent_reportingTheExitOfAnotherNodesJob_isRefused_andTheJobRunsOn() {
        long id = runningOn("n2");

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> hub(new Peer.Node("n1"))
                .reportJobExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode("n2").build()));

        assertDenied("gantry.v1.AgentHub/ReportJobExit for node n2 refused: the caller's certificate names node n1; an agent "
                + "speaks only for its own node", e);
        assertEquals(JobState.RUNNING, h.job(id).state());
        // its own agent's report ends it
        hub(new Peer.Node("n2")).reportJobExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode("n2").build());
        assertEquals(JobState.COMPLETED, h.job(id).state());
    }

    @Test
    void aServiceCallingAgentHub_isRefused() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> hub(Peer.GANG).heartbeat(HeartbeatRequest.newBuilder().setNode("n1").build()));

        assertDenied("gantry.v1.AgentHub/Heartbeat refused to service gang-svc: only a node agent may call it", e);
    }

    @Test
    void applySlice_isGangSvcsAlone() {
        long id = runningOn("n1");
        ApplySliceRequest suspend = ApplySliceRequest.newBuilder().setEpoch(h.controller.epoch())
                .setRevision(h.controller.call(() -> h.controller.events.revision()).join()).addSuspend(id).build();

        for (Peer notGang : List.of(Peer.SELECT, new Peer.Node("n1"))) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> GangControlGrpc.newBlockingStub(channel(notGang)).applySlice(suspend));
            assertDenied("gantry.v1.GangControl/ApplySlice refused to " + notGang + ": only gang-svc may call it", e);
        }
        assertEquals(JobState.RUNNING, h.job(id).state());
        assertEquals(List.of(id), GangControlGrpc.newBlockingStub(channel(Peer.GANG)).applySlice(suspend).getSuspendedList());
    }

    @Test
    void theEventStream_isForTheDecidersAlone() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClusterEventsGrpc.newBlockingStub(channel(new Peer.Node("n1")))
                .watchClusterEvents(WatchClusterEventsRequest.getDefaultInstance()).next());

        assertDenied("gantry.v1.ClusterEvents/WatchClusterEvents refused to node n1: only select-svc or gang-svc may call it", e);
        assertTrue(ClusterEventsGrpc.newBlockingStub(channel(Peer.SELECT)).withDeadlineAfter(20, TimeUnit.SECONDS)
                .watchClusterEvents(WatchClusterEventsRequest.getDefaultInstance()).next().hasSnapshot());
    }

    /**
     * The controller reaches a node's agent only if the server there proves to be that node's agent: a launch for n1
     * sent to an address where n2's agent (or anyone else) answers fails in the handshake and never arrives.
     */
    @Test
    void theController_launchesOnlyToTheAgentOfTheNode() throws Exception {
        FakeAgent n2 = new FakeAgent();
        try (InternalServer n2Server = InternalServer.on("127.0.0.1", 0, certs.load(new Peer.Node("n2"), Instant.now()))
                .serve(n2, PeerAdmission.only(Peer.SCHEDULER)).start()) {
            InternalChannels asScheduler = new InternalChannels(certs.load(Peer.SCHEDULER, Instant.now()));
            AgentGateway gateway = new AgentGateway((node, address) -> asScheduler.open(address, new Peer.Node(node)));
            String address = "127.0.0.1:" + n2Server.port();
            try {
                CompletionException e = assertThrows(CompletionException.class,
                        () -> gateway.launch("n1", address, LaunchJobRequest.newBuilder().setJobId(1).build()).join());
                assertEquals(Status.Code.UNAVAILABLE, Status.fromThrowable(e.getCause()).getCode(), e.toString());
                assertTrue(n2.launches.isEmpty());
                gateway.launch("n2", address, LaunchJobRequest.newBuilder().setJobId(2).build()).join();
                assertEquals(2, n2.launches.get(0).getJobId());
            } finally {
                gateway.close();
            }
        }
    }

    private long runningOn(String node) {
        long id = h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\nsleep 100\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).addPartitions("debug").build())).join();
        h.registerNodes(node);
        h.startOn(id, "debug", new NodeShare(node, 1, 512, List.of(), List.of()));
        return id;
    }

    private static RegisterNodeRequest registration(String node) {
        return RegisterNodeRequest.newBuilder().setNode(node).setAgentAddress("127.0.0.1:7999").build();
    }

    private static void assertDenied(String message, StatusRuntimeException e) {
        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), e.toString());
        assertEquals(message, e.getStatus().getDescription());
    }

    private AgentHubGrpc.AgentHubBlockingStub hub(Peer as) {
        return AgentHubGrpc.newBlockingStub(channel(as)).withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    private ManagedChannel channel(Peer as) {
        ManagedChannel ch = new InternalChannels(certs.load(as, Instant.now())).open("127.0.0.1:" + server.port(), Peer.SCHEDULER);
        channels.add(ch);
        return ch;
    }
}
