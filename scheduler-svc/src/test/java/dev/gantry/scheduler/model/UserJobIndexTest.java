package dev.gantry.scheduler.model;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** squeue -u reads that user's jobs through ClusterState's per-user ids, never the whole queue. */
class UserJobIndexTest {

    private final ClusterState state = new ClusterState(Fixtures.config());

    private JobRecord job(long id, String user) {
        JobRecord j = aJob(id).build();
        return new JobRecord(id, j.request().toBuilder().user(user).build(), j.name(), user, 1000, 1000, j.partitions(),
                j.ask(), 3600, JobState.PENDING, false, dev.gantry.common.job.PendingReason.NONE, j.partition(), List.of(),
                T0, null, null, T0, 0, 0, 100, JobControls.NONE, null, 0);
    }

    private List<Long> ids(Iterable<JobRecord> jobs) {
        List<Long> out = new ArrayList<>();
        jobs.forEach(j -> out.add(j.id()));
        return out;
    }

    @Test
    void aUsersJobs_inIdOrder_fromAnyId_andSeveralUsersMerged() {
        for (long id = 1; id <= 30; id++) {
            state.put(job(id, id % 3 == 0 ? "bob" : id % 3 == 1 ? "alice" : "carol"));
        }
        assertEquals(LongStream.iterate(3, i -> i <= 30, i -> i + 3).boxed().toList(), ids(state.jobsOf(List.of("bob"), 0)));
        assertEquals(List.of(21L, 24L, 27L, 30L), ids(state.jobsOf(List.of("bob"), 20)));
        assertEquals(List.of(19L, 21L, 22L, 24L, 25L, 27L, 28L, 30L), ids(state.jobsOf(List.of("bob", "alice"), 18)),
                "two users' ids merged in order");
        assertEquals(List.of(), ids(state.jobsOf(List.of("nobody"), 0)));
        state.put(state.job(3).toBuilder().pendingReason(dev.gantry.common.job.PendingReason.RESOURCES).build());
        assertEquals(10, ids(state.jobsOf(List.of("bob"), 0)).size(), "a new version of a job is not a new job");
    }

    @Test
    void forgottenJobs_areNotListed_andTheirIdsAreCompactedAway() {
        for (long id = 1; id <= 100; id++) {
            state.put(job(id, "alice"));
        }
        for (long id = 1; id <= 60; id++) {
            state.put(state.job(id).toBuilder().state(JobState.COMPLETED, T0).endTime(T0).build());
            state.purge(id);
            assertEquals(LongStream.rangeClosed(id + 1, 100).boxed().toList(), ids(state.jobsOf(List.of("alice"), 0)));
        }
        assertTrue(state.userIndexSize("alice") < 100, "compacted: " + state.userIndexSize("alice"));
        assertEquals(List.of(99L, 100L), ids(state.jobsOf(List.of("alice"), 98)));
        for (long id = 61; id <= 100; id++) {
            state.put(state.job(id).toBuilder().state(JobState.CANCELLED, T0).endTime(T0).build());
            state.purge(id);
        }
        assertEquals(List.of(), ids(state.jobsOf(List.of("alice"), 0)));
        assertEquals(0, state.userIndexSize("alice"));
        state.put(job(101, "alice"));
        assertEquals(List.of(101L), ids(state.jobsOf(List.of("alice"), 0)));
    }
}
