package dev.gantry.select;

import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.Conditions.waitUntil;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.select.fixture.FakeScheduler;
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
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The wired service: started by Micronaut, it follows a (fake) scheduler-svc over mutual TLS, answers Plan on its
 * internal port to scheduler-svc alone (not on its public port) and exposes its metrics on /prometheus.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SelectApplicationTest implements TestPropertyProvider {

    private final FakeScheduler scheduler = new FakeScheduler();
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
            certs = CertificateDirectory.open(Files.createTempDirectory("select-tls"), "test", now);
            for (Peer p : List.of(Peer.SCHEDULER, Peer.SELECT, Peer.GANG)) {
                certs.issue(p, List.of(), now, Duration.ofDays(1));
            }
            schedulerServer = InternalServer.on("127.0.0.1", 0, certs.load(Peer.SCHEDULER, now))
                    .serve(scheduler, PeerAdmission.only(Peer.SELECT)).start();
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
                "gantry.tls.cert", certs.certificate(Peer.SELECT).toString(),
                "gantry.tls.key", certs.key(Peer.SELECT).toString(),
                "micronaut.server.port", "-1");
    }

    @AfterAll
    void stopScheduler() {
        schedulerServer.close();
    }

    @Test
    void followsTheSchedulerAnswersPlanAndExportsMetrics() throws Exception {
        scheduler.awaitStream().send(aCluster().atRevision(3).node("n1", 4, 0).partition("debug", "n1").snapshotEvent());

        ManagedChannel channel = new InternalChannels(certs.load(Peer.SCHEDULER, Instant.now()))
                .open("127.0.0.1:" + internalPort, Peer.SELECT);
        try {
            SelectGrpc.SelectBlockingStub select = SelectGrpc.newBlockingStub(channel);
            AtomicReference<PlanResponse> answer = new AtomicReference<>();
            waitUntil("Plan is answered", () -> {
                try {
                    answer.set(select.plan(PlanRequest.newBuilder().addJobs(aJob(1).tasks(4).proto()).build()));
                    return true;
                } catch (StatusRuntimeException notYet) {
                    return false;
                }
            });
            assertEquals(3, answer.get().getRevision());
            assertTrue(answer.get().getPlacements(0).getStartNow());
        } finally {
            channel.shutdownNow();
        }

        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.getPort() + "/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        for (String series : new String[] {"gantry_select_plan_seconds_bucket", "gantry_select_plan_jobs_total{result=\"placed\"} 1.0",
                "gantry_select_replica_revision 3.0", "gantry_select_events_applied_total", "gantry_select_replica_ready 1.0"}) {
            assertTrue(metrics.body().contains(series), series + " missing from /prometheus:\n" + metrics.body());
        }
    }

    @Test
    void select_isNotServedOnThePublicPort_norToAnotherService() throws Exception {
        ManagedChannel publicPort = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
        ManagedChannel asGang = new InternalChannels(certs.load(Peer.GANG, Instant.now())).open("127.0.0.1:" + internalPort, Peer.SELECT);
        try {
            StatusRuntimeException open = assertThrows(StatusRuntimeException.class,
                    () -> SelectGrpc.newBlockingStub(publicPort).plan(PlanRequest.getDefaultInstance()));
            StatusRuntimeException gang = assertThrows(StatusRuntimeException.class,
                    () -> SelectGrpc.newBlockingStub(asGang).plan(PlanRequest.getDefaultInstance()));

            assertEquals(Status.Code.UNIMPLEMENTED, open.getStatus().getCode());
            assertEquals(Status.Code.PERMISSION_DENIED, gang.getStatus().getCode());
            assertEquals("gantry.v1.Select/Plan refused to service gang-svc: only scheduler-svc may call it", gang.getStatus().getDescription());
        } finally {
            publicPort.shutdownNow();
            asGang.shutdownNow();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
