package dev.gantry.select;

import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.Conditions.waitUntil;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.select.fixture.FakeScheduler;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.ServerBuilder;
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
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The wired service: started by Micronaut, it follows a (fake) scheduler-svc over TCP, answers Plan on its gRPC port
 * and exposes its metrics on /prometheus.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SelectApplicationTest implements TestPropertyProvider {

    private final FakeScheduler scheduler = new FakeScheduler();
    private Server schedulerServer;
    private int grpcPort;

    @Inject
    EmbeddedServer http;

    @Override
    public Map<String, String> getProperties() {
        try {
            schedulerServer = ServerBuilder.forPort(0).addService(scheduler).build().start();
            grpcPort = freePort();
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
    void followsTheSchedulerAnswersPlanAndExportsMetrics() throws Exception {
        scheduler.awaitStream().send(aCluster().atRevision(3).node("n1", 4, 0).partition("debug", "n1").snapshotEvent());

        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
