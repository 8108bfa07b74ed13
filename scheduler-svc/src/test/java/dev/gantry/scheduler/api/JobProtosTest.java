package dev.gantry.scheduler.api;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobProtosTest {

    @Test
    void theStoredFormRoundTrips_pendingRunningAndFinished() {
        JobRecord pending = aJob(7).nodes(2).tasks(4).cpusPerTask(2).mem(512).build();
        JobRecord running = pending.toBuilder().state(JobState.RUNNING, T0.plusSeconds(1))
                .allocation(List.of(new NodeShare("n1", 4, 512), new NodeShare("n2", 4, 512))).startTime(T0.plusSeconds(1)).build();
        JobRecord done = running.toBuilder().state(JobState.FAILED, T0.plusSeconds(9)).endTime(T0.plusSeconds(9))
                .exit(3, 0).reason("NonZeroExitCode").build();
        for (JobRecord j : List.of(pending, running, done)) {
            assertEquals(j, JobProtos.fromProto(JobProtos.toProto(j)), j.state().name());
        }
    }

    @Test
    void apiShowsHostListsAndExpectedEnd() {
        JobRecord running = aJob(7).nodes(2).build().toBuilder().state(JobState.RUNNING, T0)
                .allocation(List.of(new NodeShare("n1", 1, 0), new NodeShare("n2", 1, 0))).startTime(T0).build();
        var p = JobProtos.toProto(running);
        assertEquals("n[1-2]", p.getNodeList());
        assertEquals("n1", p.getBatchHost());
        assertEquals(T0.plusSeconds(3600).getEpochSecond(), p.getEndTime().getSeconds());
    }
}
