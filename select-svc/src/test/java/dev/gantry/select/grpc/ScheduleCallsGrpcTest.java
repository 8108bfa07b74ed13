package dev.gantry.select.grpc;

import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.PlacementPlanner;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** EarliestStarts and PlacePreempting over grpc-java's in-process transport: wiring, revision checks, errors. */
class ScheduleCallsGrpcTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:15:30Z");
    private static final ReplicaView CLUSTER = aCluster().atRevision(42)
            .node("n1", 4, 8000).node("n2", 4, 8000).partition("debug", "n1", "n2").view();

    private Server server;
    private ManagedChannel channel;
    private SelectGrpc.SelectBlockingStub select;

    @BeforeEach
    void setUp() throws IOException {
        String name = InProcessServerBuilder.generateName();
        SelectGrpcService service = new SelectGrpcService(() -> Optional.of(CLUSTER), PlacementPlanner.standard(),
                InstantSource.fixed(NOW), new SimpleMeterRegistry());
        server = InProcessServerBuilder.forName(name).directExecutor().addService(service).build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        select = SelectGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void tearDown() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void earliestStarts_aJobThatFitsStartsNow_atTheReplicaRevision() {
        var reply = select.earliestStarts(EarliestStartsRequest.newBuilder().setMinRevision(42)
                .addJobs(aJob(1).tasks(4).proto()).build());
        assertEquals(42, reply.getRevision());
        assertEquals(NOW.getEpochSecond(), reply.getReservations(0).getStartTime().getSeconds(), "no `now` given: the clock");
        assertEquals("debug", reply.getReservations(0).getPartition());
    }

    @Test
    void earliestStarts_behindTheRevision_isFailedPrecondition_andABadWindowInvalid() {
        var behind = assertThrows(StatusRuntimeException.class,
                () -> select.earliestStarts(EarliestStartsRequest.newBuilder().setMinRevision(43).build()));
        assertEquals(Status.Code.FAILED_PRECONDITION, behind.getStatus().getCode());
        var window = assertThrows(StatusRuntimeException.class,
                () -> select.earliestStarts(EarliestStartsRequest.newBuilder().setWindowSeconds(-1).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, window.getStatus().getCode());
    }

    @Test
    void aFailureInTheCores_isInternalNamingIt() throws IOException {
        String name = InProcessServerBuilder.generateName();
        SelectGrpcService broken = new SelectGrpcService(() -> {
            throw new IllegalStateException("replica exploded");
        }, PlacementPlanner.standard(), InstantSource.fixed(NOW), new SimpleMeterRegistry());
        Server s = InProcessServerBuilder.forName(name).directExecutor().addService(broken).build().start();
        ManagedChannel c = InProcessChannelBuilder.forName(name).directExecutor().build();
        try {
            var e = assertThrows(StatusRuntimeException.class, () -> SelectGrpc.newBlockingStub(c)
                    .plan(dev.gantry.api.v1.PlanRequest.newBuilder().build()));
            assertEquals(Status.Code.INTERNAL, e.getStatus().getCode());
            assertEquals("java.lang.IllegalStateException: replica exploded", e.getStatus().getDescription());
        } finally {
            c.shutdownNow();
            s.shutdownNow();
        }
    }

    @Test
    void placePreempting_answersEachQuery_andNamesAMissingJob() {
        var reply = select.placePreempting(PlacePreemptingRequest.newBuilder()
                .addQueries(PreemptionQuery.newBuilder().setJob(aJob(1).nodes(2).tasks(8).proto())).build());
        assertEquals(1, reply.getResultsCount());
        assertEquals(true, reply.getResults(0).getPlacement().getStartNow());
        assertEquals(0, reply.getResults(0).getVictimsCount());

        var missing = assertThrows(StatusRuntimeException.class, () -> select.placePreempting(
                PlacePreemptingRequest.newBuilder().addQueries(PreemptionQuery.newBuilder()).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, missing.getStatus().getCode());
        assertEquals("queries[0].job must be set", missing.getStatus().getDescription());
    }
}
