package dev.gantry.common.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.HeartbeatResponse;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.SignalJobRequest;
import dev.gantry.api.v1.SignalJobResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An internal server over real TLS on loopback (grpc-java's in-process transport has no TLS): who gets through the
 * handshake, who the per-service and per-method rules admit, and what a handler's node check refuses.
 */
class InternalServerTest {

    private static final Peer.Node N1 = new Peer.Node("n1");
    private static final Peer.Node N2 = new Peer.Node("n2");

    @TempDir
    Path tmp;
    private CertificateDirectory certs;
    private InternalServer server;
    private final List<ManagedChannel> channels = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        Instant now = Instant.now();
        certs = CertificateDirectory.open(tmp.resolve("tls"), "test", now);
        for (Peer p : List.of(Peer.SCHEDULER, Peer.GANG, N1, N2)) {
            certs.issue(p, List.of(), now, Duration.ofDays(1));
        }
        // as scheduler-svc serves AgentHub, and an agent NodeAgent (launch forwarding from peers)
        server = InternalServer.on("127.0.0.1", 0, certs.load(Peer.SCHEDULER, now))
                .serve(new NodeClaimingHub(), PeerAdmission.ANY_NODE)
                .serve(new EchoAgent(), PeerAdmission.only(Peer.SCHEDULER))
                .method(NodeAgentGrpc.getLaunchJobMethod(), PeerAdmission.only(Peer.SCHEDULER).or(PeerAdmission.ANY_NODE))
                .start();
    }

    @AfterEach
    void stop() {
        channels.forEach(ManagedChannel::shutdownNow);
        server.close();
    }

    @Test
    void aPortInUse_failsTheStart_namingTheSettingAndAddress() {
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> InternalServer.on("127.0.0.1", server.port(), certs.load(Peer.GANG, Instant.now())).startOrFail());

        assertTrue(e.getMessage().startsWith("GANTRY_INTERNAL_PORT=" + server.port() + ": cannot listen on 127.0.0.1:"
                + server.port()), e.getMessage());
    }

    @Test
    void withHealth_servesHealthToAnyPeer_reportingServingOnceStarted() {
        try (InternalServer healthy = InternalServer.on("127.0.0.1", 0, certs.load(Peer.SCHEDULER, Instant.now()))
                .serve(new EchoAgent(), PeerAdmission.only(Peer.SCHEDULER)).withHealth().startOrFail()) {
            for (Peer caller : List.of(N2, Peer.GANG)) {
                var health = io.grpc.health.v1.HealthGrpc.newBlockingStub(channel(caller, Peer.SCHEDULER, healthy.port()))
                        .withDeadlineAfter(20, TimeUnit.SECONDS);
                assertEquals(io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING,
                        health.check(io.grpc.health.v1.HealthCheckRequest.getDefaultInstance()).getStatus(), caller.toString());
            }
        }
    }

    @Test
    void aServerWithoutHealth_doesNotServeIt() {
        var health = io.grpc.health.v1.HealthGrpc.newBlockingStub(channel(N1, Peer.SCHEDULER)).withDeadlineAfter(20, TimeUnit.SECONDS);
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> health.check(io.grpc.health.v1.HealthCheckRequest.getDefaultInstance()));

        assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
    }

    @Test
    void anAgent_speaksForItsOwnNode() {
        HeartbeatResponse r = hub(N1).heartbeat(HeartbeatRequest.newBuilder().setNode("n1").build());

        assertEquals("node n1", r.getControllerEpoch());
    }

    @Test
    void anAgent_speakingForAnotherNode_isRefusedNamingBoth() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> hub(N1).heartbeat(HeartbeatRequest.newBuilder().setNode("n2").build()));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertEquals("gantry.v1.AgentHub/Heartbeat for node n2 refused: the caller's certificate names node n1; an agent "
                + "speaks only for its own node", e.getStatus().getDescription());
    }

    @Test
    void aServiceTheRuleDoesNotAdmit_isRefusedNamingWhoMay() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> hub(Peer.GANG).heartbeat(HeartbeatRequest.newBuilder().setNode("n1").build()));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertEquals("gantry.v1.AgentHub/Heartbeat refused to service gang-svc: only a node agent may call it",
                e.getStatus().getDescription());
    }

    @Test
    void aMethodRule_admitsPeersItsServiceDoesNot() {
        NodeAgentGrpc.NodeAgentBlockingStub asN2 = NodeAgentGrpc.newBlockingStub(channel(N2, Peer.SCHEDULER));

        asN2.launchJob(LaunchJobRequest.newBuilder().setJobId(1).build());
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> asN2.signalJob(SignalJobRequest.newBuilder().setJobId(1).setSignal(9).build()));

        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        assertEquals("gantry.v1.NodeAgent/SignalJob refused to node n2: only scheduler-svc may call it", e.getStatus().getDescription());
        NodeAgentGrpc.newBlockingStub(channel(Peer.SCHEDULER, Peer.SCHEDULER)).signalJob(SignalJobRequest.newBuilder().setJobId(1).build());
    }

    @Test
    void aClientWithoutCertificate_failsTheHandshake() throws Exception {
        ManagedChannel anonymous = track(NettyChannelBuilder.forAddress("127.0.0.1", server.port())
                .sslContext(GrpcSslContexts.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build()).build());

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> AgentHubGrpc.newBlockingStub(anonymous)
                .withDeadlineAfter(20, TimeUnit.SECONDS).heartbeat(HeartbeatRequest.newBuilder().setNode("n1").build()));

        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
    }

    @Test
    void aPlaintextClient_getsNothing() {
        ManagedChannel plain = track(NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build());

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> AgentHubGrpc.newBlockingStub(plain)
                .withDeadlineAfter(20, TimeUnit.SECONDS).heartbeat(HeartbeatRequest.newBuilder().setNode("n1").build()));

        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
    }

    @Test
    void aCertificateOfAnotherCa_failsTheHandshake_evenNamingARealNode() throws Exception {
        CertificateDirectory forged = CertificateDirectory.open(tmp.resolve("forged"), "forged", Instant.now());
        forged.issue(N1, List.of(), Instant.now(), Duration.ofDays(1));
        // the forger trusts the real CA (its certificate is public), so only the server's check can stop it
        ServiceTls forgedTls = new ServiceTls(certs.ca().certificate(), forged.load(N1, Instant.now()).chain(),
                forged.load(N1, Instant.now()).key(), N1);

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> AgentHubGrpc.newBlockingStub(
                track(new InternalChannels(forgedTls).open("127.0.0.1:" + server.port(), Peer.SCHEDULER)))
                .withDeadlineAfter(20, TimeUnit.SECONDS).heartbeat(HeartbeatRequest.newBuilder().setNode("n1").build()));

        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
    }

    @Test
    void aClient_refusesAServerThatIsNotThePeerItMeantToReach() {
        // the server holds scheduler-svc's certificate; this client means to reach node n2's agent
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> NodeAgentGrpc.newBlockingStub(channel(Peer.SCHEDULER, N2))
                .withDeadlineAfter(20, TimeUnit.SECONDS).signalJob(SignalJobRequest.newBuilder().setJobId(1).build()));

        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
    }

    private AgentHubGrpc.AgentHubBlockingStub hub(Peer as) {
        return AgentHubGrpc.newBlockingStub(channel(as, Peer.SCHEDULER)).withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    private ManagedChannel channel(Peer as, Peer server) {
        return channel(as, server, this.server.port());
    }

    private ManagedChannel channel(Peer as, Peer server, int port) {
        return track(new InternalChannels(certs.load(as, Instant.now())).open("127.0.0.1:" + port, server));
    }

    private ManagedChannel track(ManagedChannel channel) {
        channels.add(channel);
        return channel;
    }

    /** Answers a heartbeat with who called, once the caller is shown to speak for its own node. */
    private static final class NodeClaimingHub extends AgentHubGrpc.AgentHubImplBase {
        @Override
        public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> out) {
            if (!PeerAccess.speaksFor(request.getNode(), "gantry.v1.AgentHub/Heartbeat", out)) {
                return;
            }
            out.onNext(HeartbeatResponse.newBuilder().setControllerEpoch(PeerAccess.current().toString()).build());
            out.onCompleted();
        }
    }

    private static final class EchoAgent extends NodeAgentGrpc.NodeAgentImplBase {
        @Override
        public void launchJob(LaunchJobRequest request, StreamObserver<LaunchJobResponse> out) {
            out.onNext(LaunchJobResponse.getDefaultInstance());
            out.onCompleted();
        }

        @Override
        public void signalJob(SignalJobRequest request, StreamObserver<SignalJobResponse> out) {
            out.onNext(SignalJobResponse.getDefaultInstance());
            out.onCompleted();
        }
    }
}
