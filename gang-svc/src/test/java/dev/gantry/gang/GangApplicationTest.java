package dev.gantry.gang;

import static dev.gantry.gang.fixture.Conditions.waitUntil;
import static dev.gantry.gang.fixture.GangEvents.added;
import static dev.gantry.gang.fixture.GangEvents.running;
import static dev.gantry.gang.fixture.GangEvents.snapshot;
import static dev.gantry.gang.fixture.GangEvents.snapshotEvent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GangGrpc;
import dev.gantry.api.v1.GetGangStateRequest;
import dev.gantry.gang.fixture.FakeScheduler;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.ServerBuilder;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The wired service: started by Micronaut, it follows a (fake) scheduler-svc over TCP, answers GetGangState on its
 * gRPC port and exposes its metrics on /prometheus.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GangApplicationTest implements TestPropertyProvider {

    private final FakeScheduler scheduler = new FakeScheduler();
    private Server schedulerServer;
    private int grpcPort;

    @Inject
    EmbeddedServer http;

    @Override
    public Map<String, String> getProperties() {
        try {
            schedulerServer = ServerBuilder.forPort(0).addService(scheduler).build().start();
            try (ServerSocket socket = new ServerSocket(0)) {
                grpcPort = socket.getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(
                "gantry.scheduler-address", "127.0.0.1:" + schedulerServer.getPort(),
                "grpc.server.port", Integer.toString(grpcPort),
                "micronaut.server.port", "-1");
    }

    @AfterAll
    void stopScheduler() {
        schedulerServer.shutdownNow();
    }

    @Test
    void followsTheSchedulerReportsGangStateAndExportsMetrics() throws Exception {
        scheduler.awaitStream().send(snapshotEvent(7, snapshot(List.of("debug"))), added(8, running(42, "debug", 1)));

        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
        try {
            GangGrpc.GangBlockingStub gang = GangGrpc.newBlockingStub(channel);
            waitUntil("gang-svc reaches revision 8", () -> gang.getGangState(GetGangStateRequest.getDefaultInstance()).getRevision() == 8);
            assertEquals(List.of(42L), gang.getGangState(GetGangStateRequest.getDefaultInstance()).getPartitions(0).getActiveJobIdsList());
        } finally {
            channel.shutdownNow();
        }

        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.getPort() + "/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        for (String series : new String[] {"gantry_gang_events_applied_total 1.0",
                "gantry_gang_jobs{partition=\"debug\",state=\"running\"} 1.0",
                "gantry_gang_jobs{partition=\"debug\",state=\"suspended\"} 0.0"}) {
            assertTrue(metrics.body().contains(series), series + " missing from /prometheus:\n" + metrics.body());
        }
    }
}
