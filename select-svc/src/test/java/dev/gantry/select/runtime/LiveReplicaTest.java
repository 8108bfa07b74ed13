package dev.gantry.select.runtime;

import static dev.gantry.select.fixture.ClusterFixture.EPOCH;
import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.ClusterFixture.allocation;
import static dev.gantry.select.fixture.ClusterFixture.share;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.select.fixture.ClusterFixture;
import io.grpc.Status;
import dev.gantry.select.model.ReplicaView;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LiveReplicaTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LiveReplica live = new LiveReplica(registry);
    private final ClusterFixture cluster = aCluster().atRevision(5).node("n1", 4, 0).partition("debug", "n1");

    @Test
    void servesNothingBeforeTheFirstSnapshot() {
        assertTrue(live.currentView().isEmpty());
        assertFalse(live.isReady());
        assertEquals(0.0, gauge("gantry.select.replica.ready"));
    }

    @Test
    void servesTheSnapshotThenEveryEventAppliedToIt() {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());
        assertEquals(5, live.currentView().orElseThrow().revision());
        assertEquals(1.0, gauge("gantry.select.replica.ready"));

        live.onEvent(added(6, 100, 3));
        live.onEvent(added(7, 101, 1));

        assertEquals(4, live.currentView().orElseThrow().usedCpus(0));
        assertEquals(7.0, gauge("gantry.select.replica.revision"));
        assertEquals(2.0, registry.get("gantry.select.events.applied").counter().count());
    }

    @Test
    void stopsServingWhenTheStreamIsLost_untilTheNextSnapshot() {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());

        live.onStreamClosed(Status.UNAVAILABLE);
        assertTrue(live.currentView().isEmpty());
        assertEquals(0.0, gauge("gantry.select.replica.ready"));

        live.onSnapshot("epoch-2", 0, cluster.snapshot());
        assertEquals("epoch-2", live.currentView().orElseThrow().epoch());
        assertEquals(1.0, gauge("gantry.select.replica.ready"));
    }

    @Test
    void anEventTheReplicaAlreadyHasIsSkipped() {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());

        live.onEvent(added(5, 100, 1));

        assertEquals(0.0, registry.get("gantry.select.events.applied").counter().count());
        assertEquals(0, live.currentView().orElseThrow().usedCpus(0));
    }

    @Test
    void anEventOfAnotherEpochIsRefused_soTheFollowerResyncs() {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());

        assertThrows(IllegalArgumentException.class, () -> live.onEvent(added(6, 100, 1).toBuilder()
                .setEpoch("other").build()));
        assertEquals(0, live.currentView().orElseThrow().usedCpus(0));
    }

    @Test
    void catchUp_appliesARequestsChangesAhead_andTheStreamsRepeatsAreSkipped() {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());
        live.onEvent(added(6, 100, 1));

        // the request carries 5..8 (its sender last saw an answer at 4): 6 is known, 7 and 8 are new
        live.catchUp(EPOCH, java.util.List.of(added(6, 100, 1), added(7, 101, 1), added(8, 102, 1)));

        assertTrue(live.caughtUp(EPOCH, 8));
        assertEquals(3, live.currentView().orElseThrow().usedCpus(0));
        assertEquals(2.0, registry.get("gantry.select.events.carried").counter().count());
        live.onEvent(added(7, 101, 1));
        live.onEvent(added(8, 102, 1));
        live.onEvent(added(9, 103, 1));
        assertEquals(4, live.currentView().orElseThrow().usedCpus(0), "the repeats changed nothing; 9 applied");
        assertEquals(9, live.currentView().orElseThrow().revision());
    }

    @Test
    void catchUp_stopsAtAGap_andIgnoresAnotherEpoch() {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());

        live.catchUp(EPOCH, java.util.List.of(added(6, 100, 1), added(8, 102, 1)));
        assertEquals(6, live.currentView().orElseThrow().revision(), "7 is missing: 8 waits for the stream");
        assertEquals(1, live.currentView().orElseThrow().usedCpus(0));

        live.catchUp("other", java.util.List.of(added(7, 101, 1).toBuilder().setEpoch("other").build()));
        assertEquals(6, live.currentView().orElseThrow().revision());
    }

    @Test
    void anEventBeforeAnySnapshotIsRefused() {
        assertThrows(IllegalStateException.class, () -> live.onEvent(added(6, 100, 1)));
    }

    @Test
    void awaitView_returnsAtOnce_whenTheReplicaIsAlreadyThere() throws Exception {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());

        assertEquals(5, live.awaitView(EPOCH, 5, Duration.ofMinutes(10)).orElseThrow().revision());
        assertEquals(5, live.awaitView("", 3, Duration.ofMinutes(10)).orElseThrow().revision());
    }

    @Test
    void awaitView_wakesWhenTheEventItWaitsForIsApplied() throws Exception {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());
        CompletableFuture<Optional<ReplicaView>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return live.awaitView(EPOCH, 7, Duration.ofMinutes(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        live.onEvent(added(6, 100, 3));
        live.onEvent(added(7, 101, 1));

        // ten minutes of patience: only the event can end this wait within the get's minute
        ReplicaView view = waiting.get(1, TimeUnit.MINUTES).orElseThrow();
        assertEquals(7, view.revision());
        assertEquals(4, view.usedCpus(0));
    }

    @Test
    void awaitView_wakesForTheSnapshotOfTheEpochItWaitsFor() throws Exception {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());
        CompletableFuture<Optional<ReplicaView>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return live.awaitView("epoch-2", 1, Duration.ofMinutes(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        live.onSnapshot("epoch-2", 3, cluster.snapshot());

        ReplicaView view = waiting.get(1, TimeUnit.MINUTES).orElseThrow();
        assertEquals("epoch-2", view.epoch());
        assertEquals(3, view.revision());
    }

    @Test
    void awaitView_givesUpAfterItsPatience_withTheReplicaAsItIs() throws Exception {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());

        Optional<ReplicaView> view = live.awaitView(EPOCH, 9, Duration.ofMillis(50));

        assertEquals(5, view.orElseThrow().revision(), "still behind: the caller answers FAILED_PRECONDITION");
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private static ClusterEvent added(long revision, long jobId, int cpus) {
        return ClusterEvent.newBuilder().setEpoch(EPOCH).setRevision(revision)
                .setAllocationAdded(allocation(jobId, "debug", false, share("n1", cpus, 0))).build();
    }
}
