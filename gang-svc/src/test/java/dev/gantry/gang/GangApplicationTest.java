package dev.gantry.gang;

import static dev.gantry.gang.fixture.Conditions.waitUntil;
import static dev.gantry.gang.fixture.GangEvents.added;
import static dev.gantry.gang.fixture.GangEvents.on;
import static dev.gantry.gang.fixture.GangEvents.running;
import static dev.gantry.gang.fixture.GangEvents.snapshot;
import static dev.gantry.gang.fixture.GangEvents.snapshotEvent;
import static dev.gantry.gang.fixture.GangEvents.withGang;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GangGrpc;
import dev.gantry.api.v1.GetGangStateRequest;
import dev.gantry.gang.fixture.FakeGangControl;
import dev.gantry.gang.fixture.FakeScheduler;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.CertificateDirectory;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.Peer;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The wired service: started by Micronaut, it follows a (fake) scheduler-svc over mutual TLS, sends its decisions there
 * as gang-svc, answers GetGangState on its internal port to cluster peers (not on its public port) and exposes its
 * metrics on /prometheus.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GangApplicationTest implements TestPropertyProvider {

    private final FakeScheduler scheduler = new FakeScheduler();
    private final FakeGangControl control = new FakeGangControl();
    private InternalServer schedulerServer;
    private CertificateDirectory certs;
    private int grpcPort;
    private int internalPort;

    @Inject
    EmbeddedServer http;

    @Override
    public Map<String, String> getProperties() {
        try {
            Instant now = Instant.now();
            certs = CertificateDirectory.open(Files.createTempDirectory("gang-tls"), "test", now);
            for (Peer p : List.of(Peer.SCHEDULER, Peer.GANG, new Peer.Node("n1"))) {
                certs.issue(p, List.of(), now, Duration.ofDays(1));
            }
            // as scheduler-svc's internal server admits them: the stream for the deciders, GangControl for gang-svc
            schedulerServer = InternalServer.on("127.0.0.1", 0, certs.load(Peer.SCHEDULER, now))
                    .serve(scheduler, PeerAdmission.services(Peer.SELECT, Peer.GANG))
                    .serve(control, PeerAdmission.only(Peer.GANG)).start();
            grpcPort = freePort();
            internalPort = freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "gantry.scheduler-address", "127.0.0.1:" + schedulerServer.port(),
                "grpc.server.port", Integer.toString(grpcPort),
                "gantry.internal.port", Integer.toString(internalPort),
                "gantry.tls.ca", certs.caCertificate().toString(),
                "gantry.tls.cert", certs.certificate(Peer.GANG).toString(),
                "gantry.tls.key", certs.key(Peer.GANG).toString(),
                "micronaut.server.port", "-1");
    }

    @AfterAll
    void stopScheduler() {
        schedulerServer.close();
    }

    @Test
    void followsTheSchedulerReportsGangStateAndExportsMetrics() throws Exception {
        // the cluster's PreemptMode=GANG and SchedulerTimeSlice=1 come with the snapshot, as everything gang-svc knows
        scheduler.awaitStream().send(snapshotEvent(7, withGang(snapshot(List.of("debug")), 1)), added(8, running(42, "debug", 1)),
                added(9, on(43, "debug", 2, "n1")), added(10, on(44, "debug", 3, "n1")));

        // any peer of the cluster may read the state, an agent as well as a service
        ManagedChannel channel = new InternalChannels(certs.load(new Peer.Node("n1"), Instant.now()))
                .open("127.0.0.1:" + internalPort, Peer.GANG);
        try {
            GangGrpc.GangBlockingStub gang = GangGrpc.newBlockingStub(channel);
            waitUntil("gang-svc reaches revision 10", () -> gang.getGangState(GetGangStateRequest.getDefaultInstance()).getRevision() == 10);
            // 42 holds no node, so it always runs; 43 and 44 share n1 and take turns every second
            List<Long> active = gang.getGangState(GetGangStateRequest.getDefaultInstance()).getPartitions(0).getActiveJobIdsList();
            assertTrue(active.equals(List.of(42L, 43L)) || active.equals(List.of(42L, 44L)), active.toString());
            waitUntil("gang-svc asks to suspend 43 or 44", () -> !control.requests().isEmpty());
            List<Long> suspend = control.requests().getFirst().getSuspendList();
            assertTrue(suspend.equals(List.of(43L)) || suspend.equals(List.of(44L)), suspend.toString());
        } finally {
            channel.shutdownNow();
        }

        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.getPort() + "/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        for (String series : new String[] {"gantry_gang_events_applied_total 3.0",
                "gantry_gang_swaps_total{partition=\"debug\"}",
                "gantry_gang_jobs{partition=\"debug\",state=\"running\"} 3.0",
                "gantry_gang_jobs{partition=\"debug\",state=\"suspended\"} 0.0"}) {
            assertTrue(metrics.body().contains(series), series + " missing from /prometheus:\n" + metrics.body());
        }
    }

    @Test
    void gangState_isNotServedOnThePublicPort() throws Exception {
        ManagedChannel publicPort = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
        try {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> GangGrpc.newBlockingStub(publicPort).getGangState(GetGangStateRequest.getDefaultInstance()));
            StatusRuntimeException control = assertThrows(StatusRuntimeException.class,
                    () -> GangControlGrpc.newBlockingStub(publicPort).applySlice(dev.gantry.api.v1.ApplySliceRequest.getDefaultInstance()));

            assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
            assertEquals(Status.Code.UNIMPLEMENTED, control.getStatus().getCode());
        } finally {
            publicPort.shutdownNow();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
