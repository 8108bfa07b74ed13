package dev.gantry.select.grpc;

import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.JobFixture.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.BackfillOutcome;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.Placement;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.PreemptionPlacement;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.api.v1.Reservation;
import dev.gantry.api.v1.ResourceRequest;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.api.v1.WillRunRequest;
import dev.gantry.api.v1.WillRunResponse;
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
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Select service over grpc-java's in-process transport, planning on a replica the test sets. */
class SelectGrpcServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:15:30.5Z");

    /** 2 nodes of 4 CPUs in "debug", at revision 42. */
    private static final ReplicaView CLUSTER = aCluster().atRevision(42)
            .node("n1", 4, 8000).node("n2", 4, 8000).partition("debug", "n1", "n2").view();

    /** n1 full with job 100; n2 half full with job 101 (the main pass's preemption part). */
    private static final ReplicaView PREEMPTABLE = aCluster().atRevision(7)
            .node("n1", 4, 8000).node("n2", 4, 8000).partition("debug", "n1", "n2")
            .running(100, "debug", "n1", 4, 0).running(101, "debug", "n2", 2, 0).view();

    private final AtomicReference<Optional<ReplicaView>> replica = new AtomicReference<>(Optional.empty());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Server server;
    private ManagedChannel channel;
    private SelectGrpc.SelectBlockingStub select;

    @BeforeEach
    void setUp() throws IOException {
        String name = InProcessServerBuilder.generateName();
        SelectGrpcService service = new SelectGrpcService(replica::get, PlacementPlanner.standard(), InstantSource.fixed(NOW), registry);
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
    void planAnswersOnePlacementPerJobAtTheReplicaRevision() {
        replica.set(Optional.of(CLUSTER));

        PlanResponse response = select.plan(PlanRequest.newBuilder().setMinRevision(40).setStopAtFirstBlocked(true)
                .addJobs(aJob(1).nodes(2).tasks(6).mem(1000).proto())
                .addJobs(aJob(2).tasks(4).proto())
                .addJobs(aJob(3).tasks(1).proto())
                .build());

        assertEquals("epoch-1", response.getEpoch());
        assertEquals(42, response.getRevision());
        assertEquals(Placement.newBuilder().setJobId(1).setStartNow(true).setPartition("debug")
                .addNodes(NodeAllocation.newBuilder().setNode("n1").setCpus(3).setMemoryMb(1000))
                .addNodes(NodeAllocation.newBuilder().setNode("n2").setCpus(3).setMemoryMb(1000)).build(), response.getPlacements(0));
        assertEquals(Placement.newBuilder().setJobId(2).setReason("Resources").build(), response.getPlacements(1));
        assertEquals(Placement.newBuilder().setJobId(3).setReason("Priority").build(), response.getPlacements(2));
    }

    @Test
    void aQueueSession_sendsEachRequestOnce_andLaterCallsNameOnlyTheIds() {
        replica.set(Optional.of(CLUSTER));
        PlanRequest first = PlanRequest.newBuilder().setStopAtFirstBlocked(true).setQueueSession("s1")
                .addQueue(1).addQueue(2).addQueue(3)
                .addJobs(aJob(1).nodes(2).tasks(6).mem(1000).proto()).addJobs(aJob(2).tasks(4).proto())
                .addJobs(aJob(3).tasks(1).proto()).build();
        PlanResponse whole = select.plan(first);

        PlanResponse idsOnly = select.plan(PlanRequest.newBuilder().setStopAtFirstBlocked(true).setQueueSession("s1")
                .addQueue(1).addQueue(2).addQueue(3).build());

        assertEquals(whole.getPlacementsList(), idsOnly.getPlacementsList(), "the kept requests answer as the sent ones");
        PlanResponse changed = select.plan(PlanRequest.newBuilder().setStopAtFirstBlocked(true).setQueueSession("s1")
                .addQueue(2).addQueue(3).addJobs(aJob(2).tasks(1).proto()).build());
        assertTrue(changed.getPlacements(0).getStartNow(), "job 2's new request (1 task) replaced the kept one");
        assertEquals(2, changed.getPlacementsCount());
    }

    @Test
    void aQueueIdNeverSent_orOfAnotherSession_isNotFound_andTheSessionMustBeSentAgain() {
        replica.set(Optional.of(CLUSTER));
        select.plan(PlanRequest.newBuilder().setQueueSession("s1").addQueue(1).addJobs(aJob(1).proto()).build());

        StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class, () -> select.plan(
                PlanRequest.newBuilder().setQueueSession("s1").addQueue(1).addQueue(9).build()));
        assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
        assertTrue(unknown.getStatus().getDescription().contains("job 9 is not known"), unknown.getStatus().getDescription());
        StatusRuntimeException dropped = assertThrows(StatusRuntimeException.class, () -> select.plan(
                PlanRequest.newBuilder().setQueueSession("s1").addQueue(1).build()));
        assertEquals(Status.Code.NOT_FOUND, dropped.getStatus().getCode(), "after a miss the session is gone");
        select.plan(PlanRequest.newBuilder().setQueueSession("s2").addQueue(1).addJobs(aJob(1).proto()).build());
        assertThrows(StatusRuntimeException.class, () -> select.plan(
                PlanRequest.newBuilder().setQueueSession("s1").addQueue(1).build()), "one session at a time");
    }

    @Test
    void omitPriority_leavesOutTheJobsThatWaitForPriority() {
        replica.set(Optional.of(CLUSTER));

        PlanResponse response = select.plan(PlanRequest.newBuilder().setStopAtFirstBlocked(true).setOmitPriority(true)
                .addJobs(aJob(1).nodes(2).tasks(6).mem(1000).proto()).addJobs(aJob(2).tasks(4).proto())
                .addJobs(aJob(3).tasks(1).proto()).addJobs(aJob(4).tasks(1).proto()).build());

        assertEquals(List.of(1L, 2L), response.getPlacementsList().stream().map(Placement::getJobId).toList());
        assertEquals("Resources", response.getPlacements(1).getReason());
    }

    @Test
    void planCountsPlacedAndBlockedJobsAndTimesEachCall() {
        replica.set(Optional.of(CLUSTER));

        select.plan(PlanRequest.newBuilder().addJobs(aJob(1).proto()).addJobs(aJob(2).tasks(99).proto()).addJobs(aJob(3).proto()).build());

        assertEquals(2.0, registry.get("gantry.select.plan.jobs").tag("result", "placed").counter().count());
        assertEquals(1.0, registry.get("gantry.select.plan.jobs").tag("result", "blocked").counter().count());
        assertEquals(1, registry.get("gantry.select.plan").timer().count());
    }

    @Test
    void planBeforeTheFirstSnapshotIsUnavailable() {
        StatusRuntimeException error = assertThrows(StatusRuntimeException.class,
                () -> select.plan(PlanRequest.newBuilder().addJobs(aJob(1).proto()).build()));

        assertEquals(Status.Code.UNAVAILABLE, error.getStatus().getCode());
        assertEquals("replica not ready", error.getStatus().getDescription());
    }

    @Test
    void willRunBeforeTheFirstSnapshotIsUnavailable() {
        StatusRuntimeException error = assertThrows(StatusRuntimeException.class,
                () -> select.willRun(WillRunRequest.newBuilder().setJob(aJob(1).proto()).build()));

        assertEquals(Status.Code.UNAVAILABLE, error.getStatus().getCode());
    }

    @Test
    void planFromAReplicaBehindMinRevisionFailsItsPrecondition() {
        replica.set(Optional.of(CLUSTER));

        StatusRuntimeException error = assertThrows(StatusRuntimeException.class,
                () -> select.plan(PlanRequest.newBuilder().setMinRevision(43).addJobs(aJob(1).proto()).build()));

        assertEquals(Status.Code.FAILED_PRECONDITION, error.getStatus().getCode());
        assertTrue(error.getStatus().getDescription().contains("revision 42"), error.getStatus().getDescription());
        assertTrue(error.getStatus().getDescription().contains("min_revision 43"), error.getStatus().getDescription());
    }

    @Test
    void planFromAReplicaBehindMinRevision_waitsForIt_andAnswersAtTheRevisionReached() throws IOException {
        ReplicaView caughtUp = aCluster().atRevision(43)
                .node("n1", 4, 8000).node("n2", 4, 8000).partition("debug", "n1", "n2").view();
        java.util.List<Long> waitedFor = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.List<String> waitedOn = new java.util.concurrent.CopyOnWriteArrayList<>();
        ReplicaSource advancing = new ReplicaSource() {
            @Override
            public Optional<ReplicaView> currentView() {
                return Optional.of(CLUSTER);
            }

            @Override
            public Optional<ReplicaView> awaitView(String epoch, long minRevision, java.time.Duration patience) {
                waitedFor.add(minRevision);
                waitedOn.add(Thread.currentThread().getName());
                return Optional.of(caughtUp);
            }
        };
        SimpleMeterRegistry own = new SimpleMeterRegistry();
        String name = InProcessServerBuilder.generateName();
        Server waiting = InProcessServerBuilder.forName(name).directExecutor()
                .addService(new SelectGrpcService(advancing, PlacementPlanner.standard(), InstantSource.fixed(NOW), own))
                .build().start();
        ManagedChannel to = InProcessChannelBuilder.forName(name).directExecutor().build();
        try {
            PlanResponse response = SelectGrpc.newBlockingStub(to)
                    .plan(PlanRequest.newBuilder().setMinRevision(43).addJobs(aJob(1).proto()).build());

            assertEquals(43, response.getRevision());
            assertEquals(java.util.List.of(43L), waitedFor);
            assertTrue(waitedOn.getFirst().startsWith("select-wait-"), "waits off the transport's thread: " + waitedOn);
            assertEquals(1, own.get("gantry.select.replica.wait").timer().count());
            SelectGrpc.newBlockingStub(to).plan(PlanRequest.newBuilder().setMinRevision(42).addJobs(aJob(1).proto()).build());
            assertEquals(java.util.List.of(43L), waitedFor, "a replica already there is not waited for");
        } finally {
            to.shutdownNow();
            waiting.shutdownNow();
        }
    }

    @Test
    void planFromAReplicaOfAnotherControllerEpochFailsItsPrecondition() {
        replica.set(Optional.of(CLUSTER));
        String current = select.plan(PlanRequest.newBuilder().addJobs(aJob(1).proto()).build()).getEpoch();

        StatusRuntimeException error = assertThrows(StatusRuntimeException.class,
                () -> select.plan(PlanRequest.newBuilder().setEpoch(current + "-restarted").addJobs(aJob(1).proto()).build()));

        assertEquals(Status.Code.FAILED_PRECONDITION, error.getStatus().getCode());
        assertTrue(error.getStatus().getDescription().contains("epoch " + current + "-restarted"),
                error.getStatus().getDescription());
        assertEquals(current, select.plan(PlanRequest.newBuilder().setEpoch(current).addJobs(aJob(1).proto()).build())
                .getEpoch(), "the same epoch is answered");
    }

    static Stream<Arguments> malformedJobs() {
        ResourceRequest good = aJob(9).proto();
        return Stream.of(
                Arguments.of(good.toBuilder().setMinNodes(0), "jobs[1].min_nodes must be positive, got 0"),
                Arguments.of(good.toBuilder().setMaxNodes(-1), "jobs[1].max_nodes must be positive, got -1"),
                Arguments.of(good.toBuilder().setMinNodes(3).setMaxNodes(2), "jobs[1].min_nodes (3) must not exceed max_nodes (2)"),
                Arguments.of(good.toBuilder().setNumTasks(0), "jobs[1].num_tasks must be positive, got 0"),
                Arguments.of(good.toBuilder().setCpusPerTask(-2), "jobs[1].cpus_per_task must be positive, got -2"),
                Arguments.of(good.toBuilder().setMemPerNodeMb(-1), "jobs[1].mem_per_node_mb must not be negative, got -1"),
                Arguments.of(good.toBuilder().clearPartitions(), "jobs[1].partitions must name at least one partition"),
                Arguments.of(good.toBuilder().setJobId(0), "jobs[1].job_id must be set"));
    }

    @ParameterizedTest(name = "INVALID_ARGUMENT: {1}")
    @MethodSource("malformedJobs")
    void planRejectsAMalformedJobNamingTheField(ResourceRequest.Builder job, String message) {
        replica.set(Optional.of(CLUSTER));

        StatusRuntimeException error = assertThrows(StatusRuntimeException.class,
                () -> select.plan(PlanRequest.newBuilder().addJobs(aJob(1).proto()).addJobs(job).build()));

        assertEquals(Status.Code.INVALID_ARGUMENT, error.getStatus().getCode());
        assertEquals(message, error.getStatus().getDescription());
    }

    @Test
    void malformedJobsAreRejectedEvenBeforeTheReplicaIsReady() {
        StatusRuntimeException error = assertThrows(StatusRuntimeException.class,
                () -> select.plan(PlanRequest.newBuilder().addJobs(aJob(1).proto().toBuilder().setNumTasks(0)).build()));

        assertEquals(Status.Code.INVALID_ARGUMENT, error.getStatus().getCode());
    }

    @Test
    void willRunAJobThatFitsStartsNow() {
        replica.set(Optional.of(CLUSTER));

        WillRunResponse response = select.willRun(WillRunRequest.newBuilder().setJob(aJob(5).tasks(4).proto()).build());

        assertEquals("epoch-1", response.getEpoch());
        assertEquals(42, response.getRevision());
        assertTrue(response.getPlacement().getStartNow());
        assertEquals("n1", response.getPlacement().getNodes(0).getNode());
        assertEquals(Timestamp.newBuilder().setSeconds(NOW.getEpochSecond()).setNanos(NOW.getNano()).build(), response.getEarliestStart());
    }

    @Test
    void willRunAJobThatDoesNotFitSaysWhyAndLeavesTheStartUnknown() {
        replica.set(Optional.of(CLUSTER));

        WillRunResponse response = select.willRun(WillRunRequest.newBuilder().setJob(aJob(5).tasks(16).proto()).build());

        assertFalse(response.getPlacement().getStartNow());
        assertEquals("Resources", response.getPlacement().getReason());
        assertFalse(response.hasEarliestStart());
    }

    @Test
    void willRunAJobThatFitsLater_answersItsEarliestStartAndNodes() {
        java.time.Instant end = NOW.plusSeconds(3600);
        replica.set(Optional.of(aCluster().atRevision(42).node("n1", 4, 8000).node("n2", 4, 8000)
                .partition("debug", "n1", "n2").running(7, "debug", "n1", 4, 1000, end)
                .running(8, "debug", "n2", 2, 1000, end.plusSeconds(3600)).view()));

        WillRunResponse response = select.willRun(WillRunRequest.newBuilder().setJob(aJob(5).tasks(4).proto()).build());

        assertFalse(response.getPlacement().getStartNow());
        assertEquals(end.getEpochSecond(), response.getEarliestStart().getSeconds(), "when job 7 ends, n1 is free");
        assertEquals(java.util.List.of("n1"), response.getEarliestNodesList());
        assertEquals("debug", response.getEarliestPartition());
    }

    @Test
    void willRunWithoutAJobOrWithAMalformedOneIsInvalid() {
        replica.set(Optional.of(CLUSTER));

        StatusRuntimeException missing = assertThrows(StatusRuntimeException.class,
                () -> select.willRun(WillRunRequest.getDefaultInstance()));
        StatusRuntimeException malformed = assertThrows(StatusRuntimeException.class,
                () -> select.willRun(WillRunRequest.newBuilder().setJob(aJob(5).proto().toBuilder().setMaxNodes(0)).build()));

        assertEquals(Status.Code.INVALID_ARGUMENT, missing.getStatus().getCode());
        assertEquals("job must be set", missing.getStatus().getDescription());
        assertEquals("job.max_nodes must be positive, got 0", malformed.getStatus().getDescription());
    }

    private static PreemptionQuery.Builder query(long job, int tasks, long... preemptable) {
        PreemptionQuery.Builder q = PreemptionQuery.newBuilder().setJob(aJob(job).tasks(tasks).proto());
        for (long p : preemptable) {
            q.addPreemptable(p);
        }
        return q;
    }

    @Test
    void mainPass_answersThePreemptionOfTheJobsLeftWaiting_onWhatThePlacementsTake() {
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

        replica.set(Optional.of(PREEMPTABLE));
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
    void mainPass_theSamePreemptionQuestionAlone_placesJob3OverJob101_whenNoPlacementTakesN2() {
        replica.set(Optional.of(PREEMPTABLE));
        var reply = select.placePreempting(PlacePreemptingRequest.newBuilder().addQueries(query(3, 4, 101)).build());
        assertTrue(reply.getResults(0).getPlacement().getStartNow(), "the control: without job 1's start, n2 frees up");
        assertEquals(List.of(101L), reply.getResults(0).getVictimsList());
    }

    @Test
    void mainPass_aNegativeMaxTried_isInvalidNamingTheField() {
        replica.set(Optional.of(PREEMPTABLE));
        var e = assertThrows(StatusRuntimeException.class, () -> select.plan(PlanRequest.newBuilder()
                .addJobs(aJob(1).tasks(1).proto())
                .setPreemption(PlacePreemptingRequest.newBuilder().setMaxTried(-1).addQueries(query(1, 1, 100)))
                .build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertEquals("preemption.max_tried must not be negative, got -1", e.getStatus().getDescription());
    }

    @Test
    void backfillPass_placesTheNamedBlockedJobsOverTheReservations_inTheSameCall() {
        // n1 busy for 1000 s; job 1 wants both nodes (reserved at +1000), job 2 one node for longer (would delay it)
        replica.set(Optional.of(aCluster().atRevision(42).node("n1", 4, 8000).node("n2", 4, 8000)
                .partition("debug", "n1", "n2").running(7, "debug", "n1", 4, 1000, NOW.plusSeconds(1000)).view()));
        EarliestStartsRequest.Builder request = EarliestStartsRequest.newBuilder().setMinRevision(42)
                .setReservationMode(dev.gantry.api.v1.ReservationMode.RESERVATION_MODE_CONSERVATIVE)
                .addJobs(aJob(1).nodes(2).tasks(8).proto().toBuilder().setTimeLimitSeconds(1000))
                .addJobs(aJob(2).tasks(4).proto().toBuilder().setTimeLimitSeconds(5000));

        EarliestStartsResponse plain = select.earliestStarts(request.build());
        EarliestStartsResponse over = select.earliestStarts(request.addOverReservationJobIds(2).build());

        assertEquals(List.of(BackfillOutcome.BACKFILL_OUTCOME_RESERVED, BackfillOutcome.BACKFILL_OUTCOME_RESERVED),
                over.getReservationsList().stream().map(Reservation::getOutcome).toList());
        assertEquals(0, plain.getOverReservationsCount(), "no job named: nothing placed over reservations");
        assertEquals(1, over.getOverReservationsCount());
        assertEquals(2, over.getOverReservations(0).getJobId());
        assertTrue(over.getOverReservations(0).getStartNow());
        assertEquals("n2", over.getOverReservations(0).getNodes(0).getNode());
    }
}
