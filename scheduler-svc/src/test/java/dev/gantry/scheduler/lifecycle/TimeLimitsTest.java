package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimeLimitsTest {

    /** Job 1 runs since T0 with a one-hour limit. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "one second before the limit runs on,             3599, 0,  0,    false",
        "at the limit it ends,                            3600, 0,  0,    true",
        "OverTimeLimit gives it more time,                3600, 60, 0,    false",
        "and ends it after that,                          3660, 60, 0,    true",
        "time spent suspended does not count,             3600, 0,  120,  false",
        "OverTimeLimit=UNLIMITED never ends it,           99999, -1, 0,   false",
    })
    void aRunningJob_endsAtItsLimit(String rule, long elapsed, long overTime, long suspended, boolean expired) {
        JobRecord j = running(1, "n1").toBuilder().suspendedSeconds(suspended).build();
        assertEquals(expired, TimeLimits.expired(j, overTime, T0.plusSeconds(elapsed)));
    }

    @Test
    void anUnlimitedJob_runsOn() {
        JobRecord j = running(1, "n1").toBuilder().timeLimitSeconds(-1).build();
        assertFalse(TimeLimits.expired(j, 0, T0.plusSeconds(999_999)));
    }

    @Test
    void onlyRunningJobsNotYetCompleting_areEnded() {
        JobRecord pending = aJob(2).build();
        JobRecord cancelling = JobEnding.stopping(running(3, "n2"), JobState.CANCELLED, T0).build();
        JobRecord suspended = running(4, "n3").toBuilder().state(JobState.SUSPENDED, T0).build();
        Decision d = TimeLimits.enforce(List.of(pending, cancelling, suspended), 0, T0.plusSeconds(7200));
        assertTrue(d.isEmpty());
    }

    @Test
    void aJobPastItsLimit_endsTimeout_throughTheKillSequence_durably() {
        JobRecord j = running(1, "n1", "n2");
        Decision d = TimeLimits.enforce(List.of(j), 0, T0.plusSeconds(3600));

        JobRecord t = d.records().get(0);
        assertEquals(JobState.TIMEOUT, t.state());
        assertEquals("TimeLimit", t.reason());
        assertTrue(t.completing(), "it keeps its nodes until its processes are gone");
        assertEquals(T0.plusSeconds(3600), t.endTime());
        assertEquals(List.of(new Effect.Terminate(t, "time limit")), effects(d, Effect.Terminate.class));
        assertEquals(List.of(new Effect.Persist(t)), effects(d, Effect.Persist.class));
        assertEquals(List.of(), effects(d, Effect.StopCharging.class), "charged until its processes are gone");
    }
}
