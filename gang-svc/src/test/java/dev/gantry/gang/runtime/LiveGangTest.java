package dev.gantry.gang.runtime;

import static dev.gantry.gang.fixture.GangEvents.EPOCH;
import static dev.gantry.gang.fixture.GangEvents.added;
import static dev.gantry.gang.fixture.GangEvents.changed;
import static dev.gantry.gang.fixture.GangEvents.nodeChanged;
import static dev.gantry.gang.fixture.GangEvents.on;
import static dev.gantry.gang.fixture.GangEvents.released;
import static dev.gantry.gang.fixture.GangEvents.running;
import static dev.gantry.gang.fixture.GangEvents.snapshot;
import static dev.gantry.gang.fixture.GangEvents.suspended;
import static dev.gantry.gang.fixture.GangEvents.withGang;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.gang.model.GangView;
import dev.gantry.gang.slice.GangSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LiveGangTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LiveGang gang = new LiveGang(registry);

    @Test
    void reportsNothingBeforeTheFirstSnapshot() {
        assertEquals(GangView.EMPTY, gang.currentStatus().view());
        assertEquals(0, gang.currentStatus().eventsApplied());
    }

    @Test
    void gaugesJobsPerPartitionAndState() {
        gang.onSnapshot(EPOCH, 1, snapshot(List.of("debug", "batch"), running(1, "debug", 1), suspended(2, "debug", 2)));
        gang.onEvent(added(2, running(3, "debug", 3)));
        gang.onEvent(changed(3, suspended(1, "debug", 1)));

        assertEquals(1.0, jobs("debug", "running"));
        assertEquals(2.0, jobs("debug", "suspended"));
        assertEquals(0.0, jobs("batch", "running"));
        assertEquals(0.0, jobs("batch", "suspended"));
    }

    @Test
    void aPartitionGoneFromANewSnapshotLosesItsGauges() {
        gang.onSnapshot(EPOCH, 1, snapshot(List.of("debug", "old"), running(1, "old", 1)));
        gang.onSnapshot("epoch-2", 0, snapshot(List.of("debug")));

        assertEquals(0, registry.find("gantry.gang.jobs").tag("partition", "old").gauges().size());
        assertEquals(2, registry.find("gantry.gang.jobs").tag("partition", "debug").gauges().size());
    }

    @Test
    void countsOnlyAllocationEvents() {
        gang.onSnapshot(EPOCH, 1, snapshot(List.of("debug")));
        gang.onEvent(added(2, running(3, "debug", 3)));
        gang.onEvent(nodeChanged(3, "n1"));

        assertEquals(1, gang.currentStatus().eventsApplied());
        assertEquals(1.0, registry.get("gantry.gang.events.applied").counter().count());
        assertEquals(3, gang.currentStatus().view().revision());
    }

    @Test
    void anEventThatDoesNotFollowIsRefused_soTheFollowerResyncs() {
        assertThrows(IllegalStateException.class, () -> gang.onEvent(added(2, running(3, "debug", 3))));

        gang.onSnapshot(EPOCH, 5, snapshot(List.of("debug")));
        assertThrows(IllegalArgumentException.class, () -> gang.onEvent(added(5, running(3, "debug", 3))));
        assertEquals(0, gang.currentStatus().eventsApplied());
    }

    @Test
    void anEventAnsweringAnOlderRequestAsksForASend_whenTheDecisionChangedMeanwhile() {
        LiveGang sliced = new LiveGang(registry, () -> Instant.EPOCH);
        AtomicInteger sends = new AtomicInteger();
        sliced.onDecisions(sends::incrementAndGet);
        sliced.onSnapshot(EPOCH, 1, withGang(snapshot(List.of("debug"), on(1, "debug", 1, "n1"), on(2, "debug", 2, "n1")), 30));
        assertEquals(1, sends.get(), "the rebuild suspends job 2");
        assertEquals(List.of(2L), sliced.take().orElseThrow().decisions().getFirst().suspend());
        sliced.onEvent(released(2, 1));             // job 2 may run again before its suspension lands

        sliced.onEvent(changed(3, on(2, "debug", 2, "n1").toBuilder().setSuspended(true).build()));

        assertEquals(3, sends.get());
        assertEquals(List.of(2L), sliced.take().orElseThrow().decisions().getFirst().resume());
    }

    private double jobs(String partition, String state) {
        return registry.get("gantry.gang.jobs").tag("partition", partition).tag("state", state).gauge().value();
    }
}
