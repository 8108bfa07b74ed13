package dev.gantry.scheduler.cycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MainPassTest {

    @Test
    void ordersByTierThenPriorityThenSubmitTimeThenId() {
        ClusterState state = new ClusterState(Fixtures.config());
        state.put(aJob(1).priority(10).build());
        state.put(aJob(2).priority(50).build());
        state.put(aJob(3).priority(50).submitted(T0.minusSeconds(5)).build());
        state.put(aJob(4).priority(1).partitions("big").build()); // PriorityTier 5 beats any priority in debug
        state.put(aJob(5).priority(50).submitted(T0.minusSeconds(5)).build());
        var in = MainPass.prepare(state);
        assertEquals(List.of(4L, 3L, 5L, 2L, 1L), in.candidates().stream().map(JobRecord::id).toList());
    }

    @Test
    void leavesOutJobsNoPartitionCanStart_withTheirReason() {
        ClusterState state = new ClusterState(Fixtures.config());
        state.put(aJob(1).partitions("paused").build());
        state.put(aJob(2).nodes(2).partitions("big").build());   // big has MaxNodes=1
        state.put(aJob(3).partitions("paused", "debug").build()); // debug is up: a candidate
        state.put(aJob(4).build().toBuilder().state(JobState.RUNNING, T0).build());
        var in = MainPass.prepare(state);
        assertEquals(List.of(3L), in.candidates().stream().map(JobRecord::id).toList());
        assertEquals(Map.of(1L, PendingReason.PARTITION_DOWN, 2L, PendingReason.PARTITION_NODE_LIMIT), in.pendingReasons());
    }
}
