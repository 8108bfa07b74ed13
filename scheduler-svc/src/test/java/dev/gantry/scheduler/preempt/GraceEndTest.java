package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.NOW;
import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A victim preempted at NOW with a 30 s GraceTime: killed at the deadline, or gone before it. */
class GraceEndTest {

    /** A victim as the controller holds it after selection: completing, in {@code state}, PreemptTime = NOW. */
    private static JobRecord victim(JobState state) {
        return aJob(7).on("n1").build().toBuilder().state(state, NOW).completing(true).preemptTime(NOW).build();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("a CANCEL victim still there at the deadline was killed", victim(JobState.PREEMPTED), 30L,
                        32L, GraceEnd.Outcome.KILLED),
                Arguments.of("a REQUEUE victim still there at the deadline was killed", victim(JobState.PENDING), 30L,
                        30L, GraceEnd.Outcome.KILLED),
                Arguments.of("a victim gone before the deadline exited within its grace time",
                        victim(JobState.PREEMPTED), 30L, 3L, GraceEnd.Outcome.EXITED),
                Arguments.of("no GraceTime: nothing to count", victim(JobState.PREEMPTED), 0L, 5L, GraceEnd.Outcome.NONE),
                Arguments.of("a cancelled job that was preempted long ago is not a victim now",
                        victim(JobState.PREEMPTED).toBuilder().state(JobState.CANCELLED, NOW.plusSeconds(600)).build(),
                        30L, 700L, GraceEnd.Outcome.NONE),
                Arguments.of("a running job is not ending", aJob(8).on("n1").build(), 30L, 60L, GraceEnd.Outcome.NONE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void graceTimeOutcome(String rule, JobRecord job, long grace, long endedAfter, GraceEnd.Outcome expected) {
        assertEquals(expected, GraceEnd.of(job, grace, NOW.plusSeconds(endedAfter)));
    }
}
