package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuspensionTest {

    @Test
    void aSuspendedJob_isNoLongerCharged_andItsProcessesStop() {
        JobRecord run = running(1, "n1");
        Decision d = Suspension.suspend(run, T0.plusSeconds(100), true);
        JobRecord s = d.records().get(0);
        assertEquals(JobState.SUSPENDED, s.state());
        assertEquals(run.allocation(), s.allocation(), "it keeps its allocation");
        assertEquals(List.of(new Effect.StopCharging(run, T0.plusSeconds(100))), effects(d, Effect.StopCharging.class));
        assertEquals(List.of(new Effect.Freeze(s)), effects(d, Effect.Freeze.class));
        assertEquals(List.of(new Effect.PublishChange(s, false)), effects(d, Effect.PublishChange.class));
    }

    @Test
    void aPreemptionVictim_alreadyFrozen_isNotFrozenTwice() {
        assertEquals(List.of(), effects(Suspension.suspend(running(1, "n1"), T0, false), Effect.Freeze.class));
    }

    @Test
    void aResumedJob_countsItsSuspension_asSuspendedTime_andIsChargedAgain() {
        JobRecord suspended = running(1, "n1").toBuilder().state(JobState.SUSPENDED, T0.plusSeconds(100))
                .suspendedSeconds(10).build();
        Decision d = Suspension.resume(suspended, T0.plusSeconds(160));
        JobRecord r = d.records().get(0);
        assertEquals(JobState.RUNNING, r.state());
        assertEquals(70, r.suspendedSeconds());
        assertEquals(List.of(new Effect.StartCharging(r, T0.plusSeconds(160))), effects(d, Effect.StartCharging.class));
        assertEquals(List.of(new Effect.Thaw(r)), effects(d, Effect.Thaw.class));
    }

    @Test
    void anOperatorsSuspension_publishesTheNodes_whoseCpusItGivesBack() {
        JobRecord run = running(1, "n1");
        JobRecord after = run.toBuilder().state(JobState.SUSPENDED, T0).adminSuspended(true).build();
        Decision d = Suspension.manual(run, after, true, T0);
        assertEquals(List.of(new Effect.PublishChange(after, true)), effects(d, Effect.PublishChange.class));
        assertEquals(List.of(new Effect.CountManualSuspension(true)), effects(d, Effect.CountManualSuspension.class));
    }
}
