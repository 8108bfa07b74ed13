package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.control.JobEdits;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequeueTest {

    static final Instant NOW = T0.plusSeconds(90);
    static final JobEdits.Caller ALICE = new JobEdits.Caller("alice", false);
    static final JobEdits.Caller BOB = new JobEdits.Caller("bob", false);
    static final JobEdits.Caller ADMIN = new JobEdits.Caller("root", true);

    /** JobControls.NONE allows requeueing: jobs are requeueable unless made otherwise. */
    static JobRecord requeueable(JobRecord j) {
        return j;
    }

    /** --no-requeue. */
    static JobRecord notRequeueable(JobRecord j) {
        JobControls c = j.controls();
        return j.toBuilder().controls(new JobControls(c.account(), c.qos(), c.nice(), false, c.restartCount(), c.hold(),
                c.beginTime(), c.dependency(), c.arrayJobId(), c.arrayTaskId(), c.arraySpec(), c.arrayMaxRunning(),
                c.adminPriority())).build();
    }

    static Stream<Arguments> refusals() {
        JobRecord run = requeueable(running(1, "n1"));
        return Stream.of(
                Arguments.of("another user's job", run, BOB, JobEdits.DENIED),
                Arguments.of("a pending job", requeueable(aJob(1).build()), ALICE, JobEdits.PENDING),
                Arguments.of("a job being killed", JobEnding.stopping(run, JobState.CANCELLED, T0).build(), ALICE,
                        "Job/step already completing or completed"),
                Arguments.of("a job that does not allow it (--no-requeue)", notRequeueable(running(1, "n1")), ALICE, JobEdits.DISABLED));
    }

    @ParameterizedTest(name = "refused: {0}")
    @MethodSource
    void refusals(String name, JobRecord j, JobEdits.Caller caller, String error) {
        assertEquals(new JobEdits.Refused(error), Requeue.request(j, caller, false, NOW));
    }

    @Test
    void aRunningJob_isKilled_andWaitsAgainOnceItsProcessesAreGone() {
        JobRecord run = requeueable(running(1, "n1"));
        JobRecord r = assertInstanceOf(JobEdits.Changed.class, Requeue.request(run, ADMIN, false, NOW)).job();
        assertEquals(JobState.PENDING, r.state());
        assertTrue(r.completing());
        assertEquals(run.allocation(), r.allocation(), "its nodes stay held until its processes are gone");
        assertEquals(0, r.controls().restartCount(), "counted when it is back in the queue");

        Decision d = Requeue.of(r);
        assertEquals(List.of(new Effect.Terminate(r, "requeued")), effects(d, Effect.Terminate.class));
        assertEquals(List.of(new Effect.Persist(r)), effects(d, Effect.Persist.class));
    }

    @Test
    void aSuspendedJob_isRequeuedHeld() {
        JobRecord suspended = requeueable(running(1, "n1")).toBuilder().state(JobState.SUSPENDED, T0).build();
        JobRecord r = assertInstanceOf(JobEdits.Changed.class, Requeue.request(suspended, ALICE, false, NOW)).job();
        assertEquals(JobControls.Hold.USER, r.controls().hold());
        assertEquals(PendingReason.HELD_USER, r.pendingReason());
    }

    @Test
    void aFinishedJob_goesBackAtOnce_withOneMoreRestart() {
        JobRecord done = requeueable(running(1, "n1")).toBuilder().state(JobState.FAILED, T0).allocation(List.of())
                .endTime(T0).exit(3, 0).build();
        JobRecord r = assertInstanceOf(JobEdits.Changed.class, Requeue.request(done, ALICE, true, NOW)).job();
        assertEquals(JobState.PENDING, r.state());
        assertEquals(1, r.controls().restartCount());
        assertEquals(0, r.exitCode());
        assertEquals(JobControls.Hold.USER, r.controls().hold(), "requeuehold");
        assertEquals(List.of(), effects(Requeue.of(r), Effect.Terminate.class), "nothing to kill");
    }
}
