package dev.gantry.gang.runtime;

import static dev.gantry.gang.fixture.GangEvents.EPOCH;
import static dev.gantry.gang.fixture.GangEvents.added;
import static dev.gantry.gang.fixture.GangEvents.changed;
import static dev.gantry.gang.fixture.GangEvents.on;
import static dev.gantry.gang.fixture.GangEvents.snapshot;
import static dev.gantry.gang.fixture.GangEvents.withGang;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.ApplySliceRequest;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.SelectSettings;
import dev.gantry.gang.fixture.FakeGangControl;
import dev.gantry.gang.model.PartitionJobs;
import dev.gantry.gang.slice.GangSettings;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The loop over grpc-java's in-process transport against a scripted GangControl, on a virtual clock. */
class TimesliceLoopTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final LiveGang gang = new LiveGang(registry, () -> now);
    private final FakeGangControl control = new FakeGangControl();
    private Server server;
    private ManagedChannel channel;
    private TimesliceLoop loop;

    @BeforeEach
    void setUp() throws IOException {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(control).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
        loop = new TimesliceLoop(gang, channel);
        ClusterSnapshot snapshot = snapshot(List.of(), on(1, "batch", 10, "n1", "n2"), on(2, "batch", 20, "n1", "n2")).toBuilder()
                .setSelect(SelectSettings.newBuilder().setSelectType("select/linear"))
                .addPartitions(Partition.newBuilder().setName("batch").setPriorityTier(1)).build();
        gang.onSnapshot(EPOCH, 7, withGang(snapshot, 2));
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow();
    }

    @Test
    void aRebuildSuspendsTheLaterOfTwoOverlappingRunningJobs_atTheReplicasEpochAndRevision() {
        loop.send();

        assertEquals(List.of(request(7, List.of(2L), List.of())), control.requests());
        loop.send();
        assertEquals(1, control.requests().size(), "an applied request is not sent again while its event is awaited");
    }

    @Test
    void aFailedCallLeavesItsDecisionsOutstanding_andTheNextSliceSendsWhatIsDecidedThen() {
        control.failNext(Status.FAILED_PRECONDITION.withDescription("another epoch"));
        loop.send();

        loop.tick();  // job 1 keeps the slice it started in: job 2's suspension is sent again
        control.failNext(Status.FAILED_PRECONDITION.withDescription("another epoch"));
        loop.tick();  // job 2 (never suspended) now has its turn: job 1 is suspended instead

        assertEquals(List.of(request(7, List.of(2L), List.of()), request(7, List.of(2L), List.of()),
                request(7, List.of(1L), List.of())), control.requests().subList(0, 3));
    }

    @Test
    void aFailedCallIsSentAgainWithTheNextSend() {
        control.failNext(Status.FAILED_PRECONDITION.withDescription("another epoch"));
        loop.send();
        gang.onEvent(added(8, on(3, "batch", 30, "n9")));

        loop.send();

        assertEquals(List.of(request(7, List.of(2L), List.of()), request(8, List.of(2L), List.of())), control.requests());
    }

    @Test
    void aRefusedDecisionIsOutstandingAgain_andSentWithTheNextEventsView() {
        control.refuseNext();
        loop.send();
        assertEquals(List.of(request(7, List.of(2L), List.of())), control.requests());

        gang.onEvent(added(8, on(3, "batch", 30, "n9")));
        loop.send();

        assertEquals(request(8, List.of(2L), List.of()), control.requests().getLast());
        loop.send();
        assertEquals(2, control.requests().size(), "once applied, it is not sent again while its event is awaited");
    }

    @Test
    void unavailableIsRetriedAtTheNextSlice() {
        control.failNext(Status.UNAVAILABLE);
        control.failNext(Status.UNAVAILABLE);
        loop.send();
        loop.tick();
        gang.onEvent(added(8, on(3, "batch", 30, "n9")));

        loop.tick();

        assertEquals(3, control.requests().size());
        // the second slice rotates (job 1's first slice is over): job 2, which the controller never suspended, keeps
        // running, and job 1 is suspended
        assertEquals(request(8, List.of(1L), List.of()), control.requests().getLast());
    }

    @Test
    void everySliceRotates_andTheMetricsCountSlicesSwapsAndSuspendedTime() {
        loop.send();
        gang.onEvent(changed(8, suspendedOn(2)));
        loop.tick();  // job 1 keeps the slice it started in
        now = now.plusSeconds(2);

        loop.tick();

        assertEquals(request(8, List.of(1L), List.of(2L)), control.requests().getLast());
        assertEquals(List.of(new PartitionJobs("batch", List.of(2L, 1L), List.of(2L))), gang.currentStatus().view().partitions());
        assertEquals(2.0, registry.get("gantry.gang.slices").tag("partition", "batch").counter().count());
        assertEquals(3.0, registry.get("gantry.gang.swaps").tag("partition", "batch").counter().count());
        assertEquals(2.0, registry.get("gantry.gang.suspended").tag("partition", "batch").timer().totalTime(TimeUnit.SECONDS));
    }

    @Test
    void noSliceIsTakenWhileTheStreamIsDown() {
        loop.send();
        gang.onEvent(changed(8, suspendedOn(2)));
        gang.onStreamClosed(Status.UNAVAILABLE);

        loop.tick();

        assertEquals(1, control.requests().size());
    }

    private static dev.gantry.api.v1.Allocation suspendedOn(long job) {
        return on(job, "batch", 20, "n1", "n2").toBuilder().setSuspended(true).build();
    }

    private static ApplySliceRequest request(long revision, List<Long> suspend, List<Long> resume) {
        return ApplySliceRequest.newBuilder().setEpoch(EPOCH).setRevision(revision).setPartition("batch")
                .addAllSuspend(suspend).addAllResume(resume).build();
    }
}
