package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.preempt.VictimPlan;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PreemptionTest {

    static final Instant NOW = T0.plusSeconds(600);

    @Test
    void aRequeueVictim_waitsPreempted_andIsKilledAfterItsGraceTime() {
        JobRecord victim = running(5, "n1");
        Decision d = Preemption.victim(victim, new VictimPlan(5, PreemptAction.REQUEUE, PreemptAction.REQUEUE, 30, false),
                null, 9, NOW);

        JobRecord next = d.records().get(0);
        assertEquals(JobState.PENDING, next.state());
        assertTrue(next.completing(), "its nodes stay held until its processes are gone");
        assertEquals(PendingReason.PREEMPTED, next.pendingReason());
        assertEquals(NOW, next.preemptTime());
        assertEquals(List.of(new Effect.Terminate(next, "preempted by job 9", 30)), effects(d, Effect.Terminate.class));
        assertEquals(List.of(new Effect.Persist(next)), effects(d, Effect.Persist.class));
        assertEquals(List.of(new Effect.CountPreempted(victim, PreemptAction.REQUEUE, null)),
                effects(d, Effect.CountPreempted.class));
    }

    @Test
    void aCancelVictim_endsPreempted_atTheEndOfItsGraceTimeAtTheLatest_namingItsPreemptor() {
        Decision d = Preemption.victim(running(5, "n1"),
                new VictimPlan(5, PreemptAction.CANCEL, PreemptAction.CANCEL, 30, false), null, 9, NOW);
        JobRecord next = d.records().get(0);
        assertEquals(JobState.PREEMPTED, next.state());
        assertEquals(NOW.plusSeconds(30), next.endTime());
        assertEquals("Preempted by job 9", next.endNote());
    }
}
