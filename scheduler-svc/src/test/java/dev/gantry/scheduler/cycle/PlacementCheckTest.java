package dev.gantry.scheduler.cycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PlacementCheckTest {

    private ClusterState state;

    @BeforeEach
    void registerNodes() {
        state = new ClusterState(Fixtures.config());
        for (NodeRecord n : List.copyOf(state.nodes())) {
            state.putNode(n.registeredAt("127.0.0.1:1", T0, T0, false, null));
        }
    }

    private Optional<String> check(JobRecord job, String partition, NodeShare... shares) {
        return PlacementCheck.check(state, job, partition, List.of(shares));
    }

    @Test
    void acceptsAPlacementThatFitsNow() {
        assertEquals(Optional.empty(), check(aJob(1).tasks(2).mem(100).build(), "debug", new NodeShare("n1", 2, 100)));
    }

    @Test
    void refusesCpusAlreadyTaken_theReplicaWasBehind() {
        state.put(aJob(9).build().toBuilder().state(JobState.RUNNING, T0).allocation(List.of(new NodeShare("n1", 3, 0))).build());
        var problem = check(aJob(1).tasks(2).build(), "debug", new NodeShare("n1", 2, 0));
        assertTrue(problem.orElseThrow().contains("1 free CPUs"), problem.toString());
    }

    @Test
    void refusesNodesOutsideThePartition() {
        assertTrue(check(aJob(1).build(), "debug", new NodeShare("b1", 1, 0)).isPresent());
    }

    @Test
    void refusesDrainedOrUnregisteredNodes() {
        state.putNode(state.node("n2").registeredAt("x", T0, T0, true, "Low CPUs"));
        assertTrue(check(aJob(1).build(), "debug", new NodeShare("n2", 1, 0)).orElseThrow().contains("not usable"));
        ClusterState fresh = new ClusterState(Fixtures.config());
        assertTrue(PlacementCheck.check(fresh, aJob(1).build(), "debug", List.of(new NodeShare("n1", 1, 0))).isPresent());
    }

    @Test
    void refusesTooFewCpusOrNodesOrMemory() {
        assertTrue(check(aJob(1).tasks(4).build(), "debug", new NodeShare("n1", 2, 0)).isPresent(), "4 CPUs needed");
        assertTrue(check(aJob(1).nodes(2).build(), "debug", new NodeShare("n1", 1, 0)).isPresent(), "2 nodes needed");
        assertTrue(check(aJob(1).mem(500).build(), "debug", new NodeShare("n1", 1, 100)).isPresent(), "500M needed");
        assertTrue(check(aJob(1).build(), "debug", new NodeShare("n1", 1, 0), new NodeShare("n1", 1, 0)).isPresent(),
                "a node given twice");
    }

    @Test
    void refusesAJobNoLongerPendingOrAnUnrequestedPartition() {
        JobRecord cancelled = aJob(1).build().toBuilder().state(JobState.CANCELLED, T0).build();
        assertTrue(check(cancelled, "debug", new NodeShare("n1", 1, 0)).isPresent());
        assertTrue(check(aJob(1).build(), "big", new NodeShare("b1", 1, 0)).isPresent());
    }
}
