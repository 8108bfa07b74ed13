package dev.gantry.scheduler.model;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.job.PendingReason;
import org.junit.jupiter.api.Test;

/** Reason= is one text made of two fields: the pending reason while pending, the end note otherwise. */
class JobRecordTest {

    @Test
    void aJobThatWaitsAgain_showsItsPendingReason_notItsLastRunsEndNote() {
        JobRecord failed = aJob(1).build().toBuilder().state(JobState.FAILED, T0).endNote("NonZeroExitCode").build();
        assertEquals("NonZeroExitCode", failed.reason());
        JobRecord again = failed.toBuilder().state(JobState.PENDING, T0.plusSeconds(1))
                .pendingReason(PendingReason.HELD_USER).build();
        assertEquals("", again.endNote());
        assertEquals("JobHeldUser", again.reason());
    }

    @Test
    void aJobOutOfTheQueue_hasNoPendingReason_andShowsNoneUntilItHasAnEndNote() {
        JobRecord waiting = aJob(1).build().toBuilder().pendingReason(PendingReason.PRIORITY).build();
        assertEquals("Priority", waiting.reason());
        JobRecord started = waiting.toBuilder().state(JobState.RUNNING, T0).build();
        assertEquals(PendingReason.NONE, started.pendingReason());
        assertEquals("None", started.reason());
        assertEquals("TimeLimit", started.toBuilder().state(JobState.TIMEOUT, T0.plusSeconds(60)).endNote("TimeLimit")
                .build().reason());
    }
}
