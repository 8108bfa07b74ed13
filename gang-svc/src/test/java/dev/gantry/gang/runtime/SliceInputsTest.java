package dev.gantry.gang.runtime;

import static dev.gantry.gang.fixture.GangEvents.EPOCH;
import static dev.gantry.gang.fixture.GangEvents.added;
import static dev.gantry.gang.fixture.GangEvents.changed;
import static dev.gantry.gang.fixture.GangEvents.nodeChanged;
import static dev.gantry.gang.fixture.GangEvents.released;
import static dev.gantry.gang.fixture.GangEvents.running;
import static dev.gantry.gang.fixture.GangEvents.snapshot;
import static dev.gantry.gang.fixture.GangEvents.snapshotEvent;
import static dev.gantry.gang.fixture.GangEvents.suspended;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.gang.model.GangReplica;
import dev.gantry.gang.model.HeldAllocation;
import dev.gantry.gang.model.GangChange;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The stream's messages as the replica's inputs: allocation order, and what each kind of event changes. */
class SliceInputsTest {

    @Test
    void aSnapshotsAllocationsComeInStartOrder_thenByJobId() {
        var snapshot = snapshot(List.of("debug"), suspended(11, "debug", 200), running(30, "debug", 50),
                running(20, "debug", 50));

        assertEquals(List.of(new HeldAllocation(20, "debug", false), new HeldAllocation(30, "debug", false), new HeldAllocation(11, "debug", true)),
                SliceInputs.allocations(snapshot).stream().map(SliceInputs::holding).toList());
        assertEquals(List.of(20L, 30L, 11L), GangReplica.fromSnapshot(EPOCH, 1, SliceInputs.partitionNames(snapshot),
                SliceInputs.allocations(snapshot).stream().map(SliceInputs::holding).toList()).view().partitions()
                .getFirst().jobIds());
    }

    static Stream<Arguments> events() {
        return Stream.of(
                Arguments.of("an added allocation", added(6, running(12, "debug", 300)),
                        new GangChange.Held(new HeldAllocation(12, "debug", false))),
                Arguments.of("a changed allocation", changed(6, suspended(12, "gpu", 300)),
                        new GangChange.Held(new HeldAllocation(12, "gpu", true))),
                Arguments.of("a released allocation", released(6, 12), new GangChange.Released(12)),
                Arguments.of("a node change", nodeChanged(6, "n1"), new GangChange.Unrelated()),
                Arguments.of("a kind this build does not know", ClusterEvent.newBuilder().setEpoch(EPOCH).setRevision(6).build(),
                        new GangChange.Unrelated()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eachEventIsTheChangeItReports(String name, ClusterEvent event, GangChange change) {
        assertEquals(change, SliceInputs.change(event));
    }

    @Test
    void aSnapshotIsNotAChange_itReplacesTheReplica() {
        assertThrows(IllegalArgumentException.class, () -> SliceInputs.change(snapshotEvent(6, snapshot(List.of("debug")))));
    }
}
