package dev.gantry.select.model;

import static dev.gantry.select.fixture.ClusterFixture.EPOCH;
import static dev.gantry.select.fixture.ClusterFixture.aCluster;
import static dev.gantry.select.fixture.ClusterFixture.allocation;
import static dev.gantry.select.fixture.ClusterFixture.share;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.select.runtime.ReplicaInputs;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReplicaTest {

    private final Replica replica = aCluster().atRevision(10)
            .node("n1", 8, 4000).node("n2", 4, 2000).partition("debug", "n1", "n2")
            .running(100, "debug", "n1", 2, 1000)
            .replica();

    @Test
    void aSnapshotGivesNodesPartitionsSettingsAndUsage() {
        ReplicaView view = aCluster().atRevision(7).linear().node("n1", 8, 4000).node("n2", 4, 2000).drained("n2")
                .partition("debug", "n2", "n1")
                .running(100, "debug", "n1", 2, 1000).suspended(101, "debug", "n1", 1, 500)
                .view();

        assertEquals(EPOCH, view.epoch());
        assertEquals(7, view.revision());
        assertEquals(SelectMode.LINEAR, view.settings().mode());
        assertEquals(new ClusterNode("n1", 8, 4000, 1, true), view.node(0));
        assertFalse(view.node(view.indexOf("n2")).usable());
        assertEquals(List.of("n2", "n1"), view.partition("debug").orElseThrow().nodes());
        assertEquals(3, view.usedCpus(0), "running and suspended jobs both hold CPUs");
        assertEquals(1500, view.usedMemoryMb(0));
        assertEquals(2, view.jobsOn(0));
        assertEquals(0, view.jobsOn(1));
        assertEquals(-1, view.indexOf("nosuch"));
    }

    static Stream<Arguments> nodeStates() {
        return Stream.of(
                Arguments.of("IDLE", Node.newBuilder().setState(NodeState.NODE_STATE_IDLE), true),
                Arguments.of("MIXED", Node.newBuilder().setState(NodeState.NODE_STATE_MIXED), true),
                Arguments.of("ALLOCATED", Node.newBuilder().setState(NodeState.NODE_STATE_ALLOCATED), true),
                Arguments.of("UNKNOWN", Node.newBuilder().setState(NodeState.NODE_STATE_UNKNOWN), false),
                Arguments.of("DOWN", Node.newBuilder().setState(NodeState.NODE_STATE_DOWN), false),
                Arguments.of("unset", Node.newBuilder(), false),
                Arguments.of("IDLE+DRAIN", Node.newBuilder().setState(NodeState.NODE_STATE_IDLE).setDrain(true), false),
                Arguments.of("MIXED+not responding", Node.newBuilder().setState(NodeState.NODE_STATE_MIXED).setNotResponding(true), false));
    }

    @ParameterizedTest(name = "a {0} node is usable: {2}")
    @MethodSource("nodeStates")
    void onlyUpNodesThatAreNeitherDrainedNorSilentAreUsable(String state, Node.Builder node, boolean usable) {
        assertEquals(usable, ReplicaInputs.node(node.setName("n1").build()).usable());
    }

    @Test
    void anAddedAllocationUsesItsNodes_andItsReleaseFreesThem() {
        ReplicaInputs.apply(replica, event(11).setAllocationAdded(allocation(200, "debug", false, share("n1", 3, 500), share("n2", 4, 2000))).build());
        ReplicaView after = replica.view();
        assertEquals(5, after.usedCpus(0));
        assertEquals(4, after.usedCpus(1));
        assertEquals(2000, after.usedMemoryMb(1));

        ReplicaInputs.apply(replica, event(12).setAllocationReleased(200).build());
        ReplicaView released = replica.view();
        assertEquals(2, released.usedCpus(0));
        assertEquals(0, released.usedCpus(1));
        assertEquals(0, released.jobsOn(1));
        assertEquals(12, replica.revision());
    }

    @Test
    void addingAJobTwiceReplacesIt_andReleasingAnUnknownJobDoesNothing() {
        ReplicaInputs.apply(replica, event(11).setAllocationAdded(allocation(100, "debug", false, share("n2", 1, 100))).build());
        ReplicaInputs.apply(replica, event(12).setAllocationReleased(999).build());

        ReplicaView view = replica.view();
        assertEquals(0, view.usedCpus(0), "the job's old share on n1 is gone");
        assertEquals(1, view.usedCpus(1));
        assertEquals(1, replica.allocationCount());
        assertEquals(12, view.revision());
    }

    @Test
    void suspendingAJobKeepsItsResources() {
        ReplicaInputs.apply(replica, event(11).setAllocationChanged(allocation(100, "debug", true, share("n1", 2, 1000))).build());

        assertTrue(replica.allocation(100).orElseThrow().suspended());
        assertEquals(2, replica.view().usedCpus(0));
        assertEquals(1000, replica.view().usedMemoryMb(0));
    }

    @Test
    void aNodeChangeReplacesTheNodeInPlace() {
        ReplicaInputs.apply(replica, event(11).setNodeChanged(Node.newBuilder().setName("n1").setState(NodeState.NODE_STATE_DOWN).setCpus(16)
                .setRealMemoryMb(8000).setWeight(5)).build());

        ReplicaView view = replica.view();
        assertEquals(new ClusterNode("n1", 16, 8000, 5, false), view.node(0));
        assertEquals(2, view.usedCpus(0), "its allocations stay");
    }

    @Test
    void aNewNodeIsAppended_andCountsAllocationsThatNamedItBefore() {
        ReplicaInputs.apply(replica, event(11).setAllocationAdded(allocation(200, "debug", false, share("n1", 1, 0), share("n3", 2, 300))).build());
        ReplicaInputs.apply(replica, event(12).setNodeChanged(Node.newBuilder().setName("n3").setState(NodeState.NODE_STATE_IDLE).setCpus(4)).build());

        ReplicaView view = replica.view();
        assertEquals(2, view.indexOf("n3"));
        assertEquals(2, view.usedCpus(2));
        assertEquals(300, view.usedMemoryMb(2));

        ReplicaInputs.apply(replica, event(13).setAllocationReleased(200).build());
        assertEquals(0, replica.view().usedCpus(2));
    }

    @Test
    void aViewIsACopy_laterEventsDoNotChangeIt() {
        ReplicaView before = replica.view();

        ReplicaInputs.apply(replica, event(11).setAllocationAdded(allocation(200, "debug", false, share("n2", 4, 0))).build());
        ReplicaInputs.apply(replica, event(12).setNodeChanged(Node.newBuilder().setName("n1").setState(NodeState.NODE_STATE_DOWN)).build());

        assertEquals(10, before.revision());
        assertEquals(0, before.usedCpus(1));
        assertTrue(before.node(0).usable());
    }

    static Stream<Arguments> eventsThatDoNotFollow() {
        Allocation job = allocation(200, "debug", false, share("n2", 4, 0));
        return Stream.of(
                Arguments.of("another epoch", ClusterEvent.newBuilder().setEpoch("epoch-2").setRevision(11).setAllocationAdded(job).build()),
                Arguments.of("the same revision", event(10).setAllocationAdded(job).build()),
                Arguments.of("an older revision", event(3).setAllocationAdded(job).build()),
                Arguments.of("a snapshot", aCluster().atRevision(11).snapshotEvent()));
    }

    @ParameterizedTest(name = "{0} is refused and changes nothing")
    @MethodSource("eventsThatDoNotFollow")
    void anEventThatDoesNotFollowTheReplicaIsRefused(String name, ClusterEvent event) {
        assertThrows(IllegalArgumentException.class, () -> ReplicaInputs.apply(replica, event));

        assertEquals(10, replica.revision());
        assertEquals(0, replica.view().usedCpus(1));
    }

    @Test
    void anEventOfAKindThisBuildDoesNotKnowOnlyAdvancesTheRevision() {
        ReplicaInputs.apply(replica, event(11).build());

        assertEquals(11, replica.revision());
        assertEquals(2, replica.view().usedCpus(0));
    }

    private static ClusterEvent.Builder event(long revision) {
        return ClusterEvent.newBuilder().setEpoch(EPOCH).setRevision(revision);
    }
}
