package dev.gantry.scheduler.api;

import static dev.gantry.scheduler.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * select-svc keeps other users' jobs off a user-exclusive job's nodes, so both what a pending job asks and what a running
 * job holds name the job's user and its own --exclusive=user (select-svc adds each partition's ExclusiveUser=YES).
 */
class SelectRequestsTest {

    static Stream<Arguments> jobs() {
        return Stream.of(
                Arguments.of("bob asked --exclusive=user", "bob", true),
                Arguments.of("alice asked nothing of the kind", "alice", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void theRequestAndTheAllocationCarryTheUserAndExclusiveUser(String rule, String user, boolean exclusiveUser) {
        JobRecord pending = as(Fixtures.aJob(5).build(), user, exclusiveUser);
        JobRecord running = pending.toBuilder().partition("debug").state(JobState.RUNNING, T0).startTime(T0)
                .allocation(List.of(new NodeShare("n1", 1, 0, List.of(0), List.of()))).build();

        var request = SelectRequests.of(pending);
        var allocation = ClusterProtos.allocation(running);

        assertEquals(user, request.getUser());
        assertEquals(exclusiveUser, request.getExclusiveUser());
        assertEquals(user, allocation.getUser());
        assertEquals(exclusiveUser, allocation.getExclusiveUser());
    }

    /** {@code j} submitted by {@code user}, with --exclusive=user when {@code exclusiveUser}. */
    private static JobRecord as(JobRecord j, String user, boolean exclusiveUser) {
        JobRequest request = j.request().toBuilder().user(user).exclusiveUser(exclusiveUser).build();
        return new JobRecord(j.id(), request, j.name(), user, j.uid(), j.gid(), j.partitions(), j.ask(), j.timeLimitSeconds(),
                j.state(), j.completing(), j.pendingReason(), j.partition(), j.allocation(), j.submitTime(), j.startTime(),
                j.endTime(), j.lastStateChange(), j.exitCode(), j.exitSignal(), j.priority(), j.controls(), j.forecast(),
                j.suspendedSeconds());
    }
}
