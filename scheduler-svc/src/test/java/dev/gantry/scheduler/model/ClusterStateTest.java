package dev.gantry.scheduler.model;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void onlyTheOwningThread_writes_andAnotherThreadIsNamedInTheError() throws Exception {
        JobRecord j = aJob(1).build();
        Throwable[] thrown = new Throwable[1];
        Thread intruder = new Thread(() -> {
            try {
                state.put(j);
            } catch (Throwable t) {
                thrown[0] = t;
            }
        }, "intruder");
        intruder.start();
        intruder.join();

        IllegalStateException e = assertInstanceOf(IllegalStateException.class, thrown[0]);
        assertTrue(e.getMessage().contains("\"intruder\""), e.getMessage());
        assertNull(state.job(1), "nothing was written");
        state.put(j); // the creating thread still owns it
        assertSame(j, state.job(1));
    }

    @Test
    void aHandOver_movesOwnership_toTheNewThread() throws Exception {
        Thread[] owner = new Thread[1];
        java.util.concurrent.ExecutorService single = java.util.concurrent.Executors.newSingleThreadExecutor(task -> {
            owner[0] = new Thread(task, "owner");
            return owner[0];
        });
        try {
            single.submit(() -> {}).get();
            state.handOverTo(owner[0]);
            single.submit(() -> state.put(aJob(1).build())).get();
            assertThrows(IllegalStateException.class, () -> state.putNode(state.node("n1")), "the old owner may not write");
        } finally {
            single.shutdown();
        }
    }
}
