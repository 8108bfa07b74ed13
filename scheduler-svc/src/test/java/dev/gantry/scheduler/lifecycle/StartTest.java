package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartTest {

    static final Instant NOW = T0.plusSeconds(30);
    static final List<NodeShare> ON_N1 = List.of(new NodeShare("n1", 2, 512));

    @Test
    void aStartedJob_runsOnItsPlacement_chargedFromNow_andIsLaunched() {
        JobRecord pending = aJob(1).build();
        Decision d = Start.start(pending, Start.Placement.of("debug", ON_N1), j -> false, List.of(), NOW);

        JobRecord r = d.records().get(0);
        assertEquals(JobState.RUNNING, r.state());
        assertEquals(ON_N1, r.allocation());
        assertEquals(NOW, r.startTime());
        assertEquals(List.of(new Effect.StartCharging(r, NOW)), effects(d, Effect.StartCharging.class));
        assertEquals(List.of(new Effect.PublishAllocation(r)), effects(d, Effect.PublishAllocation.class));
        assertEquals(List.of(new Effect.Launch(r)), effects(d, Effect.Launch.class));
        assertEquals(List.of(new Effect.Persist(r)), effects(d, Effect.Persist.class));
    }

    @Test
    void aJobGangSchedulingMustWait_startsSuspended_uncharged() {
        Decision d = Start.start(aJob(1).build(), Start.Placement.of("debug", ON_N1), j -> true, List.of(), NOW);
        assertEquals(JobState.SUSPENDED, d.records().get(0).state());
        assertEquals(List.of(), effects(d, Effect.StartCharging.class));
        assertEquals(1, effects(d, Effect.Launch.class).size(), "launched stopped");
    }

    @Test
    void aBackfillStart_saysSo() {
        Decision d = Start.start(aJob(1).build(), new Start.Placement("debug", ON_N1, true, true), j -> false, List.of(), NOW);
        assertTrue(d.records().get(0).startedByBackfill());
        assertTrue(d.records().get(0).backfillPreemptable());
    }

    @Test
    void suspendVictims_areFrozen_beforeThePreemptorsLaunch() {
        JobRecord victim = running(7, "n1");
        Decision d = Start.start(aJob(1).build(), Start.Placement.of("debug", ON_N1), j -> false, List.of(victim), NOW);
        List<Effect> agentCalls = d.effects().stream()
                .filter(e -> e instanceof Effect.Freeze || e instanceof Effect.Launch).toList();
        assertEquals(List.of(new Effect.Freeze(victim), new Effect.Launch(d.records().get(0))), agentCalls);
    }
}
