package dev.gantry.select.grpc;

import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.PreemptionPlacement;
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
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The main pass's one call: Plan's placements and, in the same answer, the preemption sets of the jobs they leave
 * waiting — computed on what the placements take, for the queries the request lets be tried.
 */
class PlanPreemptionGrpcTest {

    /** n1 full with job 100; n2 half full with job 101. */
    private static final ReplicaView CLUSTER = aCluster().atRevision(7)
            .node("n1", 4, 8000).node("n2", 4, 8000).partition("debug", "n1", "n2")
            .running(100, "debug", "n1", 4, 0).running(101, "debug", "n2", 2, 0).view();

    private Server server;
    private ManagedChannel channel;
    private SelectGrpc.SelectBlockingStub select;

    @BeforeEach
    void setUp() throws IOException {
        String name = InProcessServerBuilder.generateName();
        SelectGrpcService service = new SelectGrpcService(() -> Optional.of(CLUSTER), PlacementPlanner.standard(),
                InstantSource.fixed(Instant.parse("2026-11-27T10:00:00Z")), new SimpleMeterRegistry());
        server = InProcessServerBuilder.forName(name).directExecutor().addService(service).build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        select = SelectGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void tearDown() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    private static PreemptionQuery.Builder query(long job, int tasks, long... preemptable) {
        PreemptionQuery.Builder q = PreemptionQuery.newBuilder().setJob(aJob(job).tasks(tasks).proto());
        for (long p : preemptable) {
            q.addPreemptable(p);
        }
        return q;
    }

    @Test
    void answersThePreemptionOfTheJobsLeftWaiting_onWhatThePlacementsTake() {
        PlanRequest request = PlanRequest.newBuilder().setMinRevision(7).setStopAtFirstBlocked(true)
                .addJobs(aJob(1).tasks(2).proto()).addJobs(aJob(2).tasks(4).proto()).addJobs(aJob(3).tasks(4).proto())
                .addJobs(aJob(4).tasks(4).proto()).addJobs(aJob(5).tasks(1).proto())
                .setPreemption(PlacePreemptingRequest.newBuilder().setMaxTried(2)
                        .addQueries(query(1, 2, 100))                               // starts in the plan: not tried
                        .addQueries(query(2, 4, 100))                               // first left waiting: over 100 on n1
                        .addQueries(query(4, 4, 101).setFirstBlockedOnly(true))     // not the first left waiting
                        .addQueries(query(3, 4, 101))                               // n2 keeps job 1's 2 CPUs: no room
                        .addQueries(query(5, 1, 101)))                              // past max_tried
                .build();

        PlanResponse reply = select.plan(request);

        assertTrue(reply.getPlacements(0).getStartNow());
        assertEquals("n2", reply.getPlacements(0).getNodes(0).getNode());
        List<PreemptionPlacement> results = reply.getPreemption().getResultsList();
        assertEquals(5, results.size());
        assertTrue(results.get(0).getNotTried(), "job 1 starts without preempting");
        assertFalse(results.get(1).getNotTried());
        assertTrue(results.get(1).getPlacement().getStartNow());
        assertEquals(List.of(100L), results.get(1).getVictimsList());
        assertEquals("n1", results.get(1).getPlacement().getNodes(0).getNode());
        assertTrue(results.get(2).getNotTried(), "first_blocked_only, and job 2 is the first left waiting");
        assertFalse(results.get(3).getNotTried());
        assertFalse(results.get(3).getPlacement().getStartNow(),
                "preempting 101 frees 2 CPUs of n2 only: job 1, placed in this plan, holds the other 2");
        assertEquals(0, results.get(3).getVictimsCount());
        assertTrue(results.get(4).getNotTried(), "max_tried 2: jobs 2 and 3 were tried");
    }

    @Test
    void theSamePreemptionQuestionAlone_placesJob3OverJob101_whenNoPlacementTakesN2() {
        var reply = select.placePreempting(PlacePreemptingRequest.newBuilder().addQueries(query(3, 4, 101)).build());
        assertTrue(reply.getResults(0).getPlacement().getStartNow(), "the control: without job 1's start, n2 frees up");
        assertEquals(List.of(101L), reply.getResults(0).getVictimsList());
    }

    @Test
    void aNegativeMaxTried_isInvalidNamingTheField() {
        var e = assertThrows(StatusRuntimeException.class, () -> select.plan(PlanRequest.newBuilder()
                .addJobs(aJob(1).tasks(1).proto())
                .setPreemption(PlacePreemptingRequest.newBuilder().setMaxTried(-1).addQueries(query(1, 1, 100)))
                .build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertEquals("preemption.max_tried must not be negative, got -1", e.getStatus().getDescription());
    }
}
