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
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
    void anEventThatDoesNotFollowIsRefused_soTheFollowerResyncs() {
        live.onSnapshot(EPOCH, 5, cluster.snapshot());

        assertThrows(IllegalArgumentException.class, () -> live.onEvent(added(5, 100, 1)));
        assertEquals(0.0, registry.get("gantry.select.events.applied").counter().count());
        assertEquals(0, live.currentView().orElseThrow().usedCpus(0));
    }

    @Test
    void anEventBeforeAnySnapshotIsRefused() {
        assertThrows(IllegalStateException.class, () -> live.onEvent(added(6, 100, 1)));
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private static ClusterEvent added(long revision, long jobId, int cpus) {
        return ClusterEvent.newBuilder().setEpoch(EPOCH).setRevision(revision)
                .setAllocationAdded(allocation(jobId, "debug", false, share("n1", cpus, 0))).build();
    }
}
