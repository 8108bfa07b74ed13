package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.Forecast;
import dev.gantry.scheduler.model.JobRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingTest {

    @Test
    void aPendingJob_takesThePassesReason_unpersisted() {
        Decision d = Pending.reason(aJob(1).build(), PendingReason.RESOURCES);
        assertEquals(PendingReason.RESOURCES, d.records().get(0).pendingReason());
        assertEquals(List.of(), d.effects());
    }

    @Test
    void anUnchangedReason_aStartedJob_oraForgottenOne_changeNothing() {
        JobRecord waiting = aJob(1).build().toBuilder().pendingReason(PendingReason.PRIORITY).build();
        assertTrue(Pending.reason(waiting, PendingReason.PRIORITY).isEmpty());
        assertTrue(Pending.reason(running(2, "n1"), PendingReason.PRIORITY).isEmpty());
        assertTrue(Pending.reason(null, PendingReason.PRIORITY).isEmpty());
    }

    @Test
    void backfillsForecast_isKept_whenItChanges() {
        Forecast f = new Forecast(T0.plusSeconds(600), List.of("n1"), true);
        JobRecord j = aJob(1).build();
        JobRecord forecast = Pending.forecast(j, f, PendingReason.RESOURCES).records().get(0);
        assertEquals(f, forecast.forecast());
        assertTrue(Pending.forecast(forecast, f, PendingReason.RESOURCES).isEmpty());
    }
}
