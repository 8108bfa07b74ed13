package dev.gantry.gang.model;

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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ClusterEvent;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GangReplicaTest {

    /** debug: 10 (started at 100 s), 11 suspended (200 s); batch: empty. */
    private final GangReplica replica = GangReplica.fromSnapshot(EPOCH, 5,
            snapshot(List.of("debug", "batch"), suspended(11, "debug", 200), running(10, "debug", 100)));

    @Test
    void aSnapshotListsEveryPartitionByName_withJobsInStartOrder() {
        assertEquals(new GangView(EPOCH, 5, List.of(
                new PartitionJobs("batch", List.of(), List.of()),
                new PartitionJobs("debug", List.of(10L, 11L), List.of(10L)))), replica.view());
    }

    @Test
    void jobsStartingAtTheSameTimeAreOrderedByJobId() {
        GangReplica sameStart = GangReplica.fromSnapshot(EPOCH, 1,
                snapshot(List.of("debug"), running(30, "debug", 50), running(20, "debug", 50)));

        assertEquals(List.of(20L, 30L), sameStart.view().partitions().getFirst().jobIds());
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of("a started job goes last", List.of(added(6, running(12, "debug", 300))),
                        "debug [10, 11, 12] active [10, 12]"),
                Arguments.of("resuming a job keeps its place", List.of(changed(6, running(11, "debug", 200))),
                        "debug [10, 11] active [10, 11]"),
                Arguments.of("suspending a job keeps its place", List.of(changed(6, suspended(10, "debug", 100))),
                        "debug [10, 11] active []"),
                Arguments.of("a re-adopted job keeps its place", List.of(added(6, running(10, "debug", 100))),
                        "debug [10, 11] active [10]"),
                Arguments.of("a released job leaves", List.of(released(6, 10)),
                        "debug [11] active []"),
                Arguments.of("releasing an unknown job does nothing", List.of(released(6, 999)),
                        "debug [10, 11] active [10]"),
                Arguments.of("a job moved to another partition leaves the first", List.of(changed(6, running(10, "batch", 100))),
                        "batch [10] active [10]; debug [11] active []"),
                Arguments.of("a partition first seen in an allocation is tracked", List.of(added(6, running(12, "gpu", 300))),
                        "debug [10, 11] active [10]; gpu [12] active [12]"),
                Arguments.of("a node change changes no job", List.of(nodeChanged(6, "n1")),
                        "debug [10, 11] active [10]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void appliesAllocationChanges(String rule, List<ClusterEvent> events, String expected) {
        events.forEach(replica::apply);

        assertEquals(expected, describe(replica.view()));
        assertEquals(events.getLast().getRevision(), replica.revision());
    }

    @Test
    void onlyAllocationEventsCountAsAllocationEvents() {
        assertTrue(GangReplica.isAllocationEvent(added(6, running(12, "debug", 1))));
        assertTrue(GangReplica.isAllocationEvent(changed(6, running(12, "debug", 1))));
        assertTrue(GangReplica.isAllocationEvent(released(6, 12)));
        assertFalse(GangReplica.isAllocationEvent(nodeChanged(6, "n1")));
    }

    static Stream<Arguments> eventsThatDoNotFollow() {
        return Stream.of(
                Arguments.of("another epoch", added(6, running(12, "debug", 1)).toBuilder().setEpoch("epoch-2").build()),
                Arguments.of("the same revision", added(5, running(12, "debug", 1))),
                Arguments.of("a snapshot", snapshotEvent(6, snapshot(List.of("debug")))));
    }

    @ParameterizedTest(name = "{0} is refused and changes nothing")
    @MethodSource("eventsThatDoNotFollow")
    void anEventThatDoesNotFollowTheReplicaIsRefused(String name, ClusterEvent event) {
        GangView before = replica.view();

        assertThrows(IllegalArgumentException.class, () -> replica.apply(event));
        assertEquals(before, replica.view());
    }

    @Test
    void aViewIsACopy() {
        GangView before = replica.view();

        replica.apply(released(6, 10));

        assertEquals(List.of(10L, 11L), before.partitions().get(1).jobIds());
    }

    /** "partition [jobs] active [jobs]" for every partition with jobs, joined by "; ". */
    private static String describe(GangView view) {
        return String.join("; ", view.partitions().stream().filter(p -> !p.jobIds().isEmpty())
                .map(p -> p.partition() + " " + p.jobIds() + " active " + p.activeJobIds()).toList());
    }
}
