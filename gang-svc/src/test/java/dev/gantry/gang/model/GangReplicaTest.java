package dev.gantry.gang.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GangReplicaTest {

    private static final String EPOCH = "epoch-1";

    /** debug: 10 (started first), 11 suspended; batch: empty. */
    private final GangReplica replica = GangReplica.fromSnapshot(EPOCH, 5, List.of("debug", "batch"),
            List.of(running(10, "debug"), suspended(11, "debug")));

    private static HeldAllocation running(long jobId, String partition) {
        return new HeldAllocation(jobId, partition, false);
    }

    private static HeldAllocation suspended(long jobId, String partition) {
        return new HeldAllocation(jobId, partition, true);
    }

    private static GangChange held(HeldAllocation holding) {
        return new GangChange.Held(holding);
    }

    @Test
    void aSnapshotListsEveryPartitionByName_withJobsInAllocationOrder() {
        assertEquals(new GangView(EPOCH, 5, List.of(
                new PartitionJobs("batch", List.of(), List.of()),
                new PartitionJobs("debug", List.of(10L, 11L), List.of(10L)))), replica.view());
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of("a started job goes last", held(running(12, "debug")),
                        "debug [10, 11, 12] active [10, 12]"),
                Arguments.of("resuming a job keeps its place", held(running(11, "debug")),
                        "debug [10, 11] active [10, 11]"),
                Arguments.of("suspending a job keeps its place", held(suspended(10, "debug")),
                        "debug [10, 11] active []"),
                Arguments.of("a re-adopted job keeps its place", held(running(10, "debug")),
                        "debug [10, 11] active [10]"),
                Arguments.of("a released job leaves", new GangChange.Released(10),
                        "debug [11] active []"),
                Arguments.of("releasing an unknown job does nothing", new GangChange.Released(999),
                        "debug [10, 11] active [10]"),
                Arguments.of("a job moved to another partition leaves the first", held(running(10, "batch")),
                        "batch [10] active [10]; debug [11] active []"),
                Arguments.of("a partition first seen in an allocation is tracked", held(running(12, "gpu")),
                        "debug [10, 11] active [10]; gpu [12] active [12]"),
                Arguments.of("a node change changes no job", new GangChange.Unrelated(),
                        "debug [10, 11] active [10]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void appliesAllocationChanges(String rule, GangChange change, String expected) {
        replica.apply(EPOCH, 6, change);

        assertEquals(expected, describe(replica.view()));
        assertEquals(6, replica.revision());
    }

    @Test
    void onlyAllocationChangesCountAsAllocationEvents() {
        assertTrue(held(running(12, "debug")).isAllocation());
        assertTrue(new GangChange.Released(12).isAllocation());
        assertFalse(new GangChange.Unrelated().isAllocation());
    }

    static Stream<Arguments> eventsThatDoNotFollow() {
        return Stream.of(
                Arguments.of("another epoch", "epoch-2", 6L),
                Arguments.of("the same revision", EPOCH, 5L));
    }

    @ParameterizedTest(name = "{0} is refused and changes nothing")
    @MethodSource("eventsThatDoNotFollow")
    void anEventThatDoesNotFollowTheReplicaIsRefused(String name, String epoch, long revision) {
        GangView before = replica.view();

        assertThrows(IllegalArgumentException.class, () -> replica.apply(epoch, revision, held(running(12, "debug"))));
        assertEquals(before, replica.view());
    }

    @Test
    void aViewIsACopy() {
        GangView before = replica.view();

        replica.apply(EPOCH, 6, new GangChange.Released(10));

        assertEquals(List.of(10L, 11L), before.partitions().get(1).jobIds());
    }

    /** "partition [jobs] active [jobs]" for every partition with jobs, joined by "; ". */
    private static String describe(GangView view) {
        return String.join("; ", view.partitions().stream().filter(p -> !p.jobIds().isEmpty())
                .map(p -> p.partition() + " " + p.jobIds() + " active " + p.activeJobIds()).toList());
    }
}
