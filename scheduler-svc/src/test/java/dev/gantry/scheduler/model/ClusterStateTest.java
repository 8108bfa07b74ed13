package dev.gantry.scheduler.model;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.gantry.scheduler.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterStateTest {

    private final ClusterState state = new ClusterState(Fixtures.config());

    private JobRecord running(long id, List<NodeShare> shares) {
        return aJob(id).build().toBuilder().state(JobState.RUNNING, T0).allocation(shares).startTime(T0).build();
    }

    @Test
    void allocationFollowsTheJob_untilItsProcessesAreGone() {
        JobRecord r = running(1, List.of(new NodeShare("n1", 3, 1000), new NodeShare("n2", 1, 500)));
        state.put(r);
        assertEquals(3, state.node("n1").allocCpus());
        assertEquals(1000, state.node("n1").allocMemoryMb());
        assertEquals(NodeRecord.NodeBaseState.UNKNOWN, state.node("n1").baseState(), "not registered yet");

        JobRecord cancelling = r.toBuilder().state(JobState.CANCELLED, T0).completing(true).build();
        state.put(cancelling);
        assertEquals(3, state.node("n1").allocCpus(), "a completing job still holds its nodes");

        state.put(cancelling.toBuilder().completing(false).build());
        assertEquals(0, state.node("n1").allocCpus());
        assertEquals(0, state.node("n2").allocMemoryMb());
    }

    @Test
    void requeueGivesResourcesBack() {
        JobRecord r = running(1, List.of(new NodeShare("n1", 4, 0)));
        state.put(r);
        state.put(r.toBuilder().state(JobState.PENDING, T0).allocation(List.of()).build());
        assertEquals(0, state.node("n1").allocCpus());
    }

    @Test
    void putNodeKeepsAllocationCounts() {
        state.put(running(1, List.of(new NodeShare("n1", 2, 100))));
        NodeRecord n = state.node("n1");
        state.putNode(n.registeredAt("127.0.0.1:1", T0, T0, false, null).withAllocation(0, 0));
        assertEquals(2, state.node("n1").allocCpus());
        assertEquals(NodeRecord.NodeBaseState.MIXED, state.node("n1").baseState());
    }

    @Test
    void purgeForgetsOnlyFinishedJobs() {
        JobRecord r = running(1, List.of(new NodeShare("n1", 1, 0)));
        state.put(r);
        state.purge(1);
        assertSame(r, state.job(1), "a running job is never purged");
        state.put(r.toBuilder().state(JobState.COMPLETED, T0).build());
        state.purge(1);
        assertNull(state.job(1));
    }
}
