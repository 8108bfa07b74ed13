package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobEndingTest {

    static final Instant NOW = T0.plusSeconds(300);

    @Test
    void stopping_countsASuspensionInProgress_asSuspendedTime() {
        JobRecord suspended = running(1, "n1").toBuilder().state(JobState.SUSPENDED, T0.plusSeconds(100))
                .suspendedSeconds(20).build();
        JobRecord s = JobEnding.stopping(suspended, JobState.CANCELLED, NOW).build();
        assertEquals(20 + 200, s.suspendedSeconds());
        assertTrue(s.completing());
    }

    @Test
    void requeue_putsTheJobBackInTheQueue_sameId_oneMoreRestart_releasingItsNodes() {
        JobRecord run = running(1, "n1", "n2");
        Decision d = JobEnding.requeue(run, "launch failed", NOW);

        JobRecord p = d.records().get(0);
        assertEquals(JobState.PENDING, p.state());
        assertEquals(List.of(), p.allocation());
        assertNull(p.startTime());
        assertEquals(run.controls().restartCount() + 1, p.controls().restartCount());
        assertEquals(List.of(new Effect.StopCharging(run, NOW)), effects(d, Effect.StopCharging.class));
        assertEquals(List.of(new Effect.ReleaseParts(run, "requeued")), effects(d, Effect.ReleaseParts.class));
        assertEquals(List.of(new Effect.PublishRelease(run)), effects(d, Effect.PublishRelease.class));
        assertEquals(List.of(new Effect.Persist(p)), effects(d, Effect.Persist.class));
        assertEquals(1, effects(d, Effect.TriggerPass.class).size());
    }

    @Test
    void backInQueue_aRequeuedJobWhoseProcessesAreGone_waitsAgain() {
        JobRecord requeued = JobEnding.stopping(running(1, "n1"), JobState.PENDING, T0.plusSeconds(10)).build();
        Decision d = JobEnding.backInQueue(requeued, NOW);
        JobRecord p = d.records().get(0);
        assertEquals(JobState.PENDING, p.state());
        assertFalse(p.completing());
        assertEquals(List.of(), p.allocation());
        assertEquals(1, p.controls().restartCount());
    }

    @Test
    void nodeDown_withNoOtherPart_endsNodeFail_atOnce() {
        JobRecord run = running(1, "n1");
        Decision d = JobEnding.nodeDown(run, false, "node n1 not responding", List.of(), NOW);
        JobRecord done = d.records().get(0);
        assertEquals(JobState.NODE_FAIL, done.state());
        assertEquals("NodeDown", done.reason());
        assertFalse(done.completing());
        assertEquals(List.of(new Effect.PublishRelease(run)), effects(d, Effect.PublishRelease.class));
    }

    @Test
    void nodeDown_withPartsLeft_endsThemFirst_requeuedOrNodeFail() {
        JobRecord run = running(1, "n1", "n2");
        Decision requeue = JobEnding.nodeDown(run, true, "node n1 not responding", List.of("n2"), NOW);
        Decision fail = JobEnding.nodeDown(run, false, "node n1 not responding", List.of("n2"), NOW);

        assertEquals(JobState.PENDING, requeue.records().get(0).state());
        assertEquals(JobState.NODE_FAIL, fail.records().get(0).state());
        for (Decision d : List.of(requeue, fail)) {
            JobRecord ending = d.records().get(0);
            assertTrue(ending.completing());
            assertEquals(run.allocation(), ending.allocation(), "it keeps its nodes until n2 shows nothing left");
            assertEquals(List.of(new Effect.EndParts(ending, List.of("n2"), "node n1 not responding")),
                    effects(d, Effect.EndParts.class));
            assertEquals(List.of(), effects(d, Effect.PublishRelease.class));
        }
    }

    @Test
    void lastPartGone_releasesInTheStateTheKillSequenceRecorded() {
        JobRecord timedOut = running(1, "n1", "n2").toBuilder().state(JobState.TIMEOUT, T0.plusSeconds(3600))
                .completing(true).endTime(T0.plusSeconds(3600)).endNote("TimeLimit").build();
        Decision d = JobEnding.lastPartGone(timedOut, "n2", NOW.plusSeconds(3600));
        JobRecord done = d.records().get(0);
        assertEquals(JobState.TIMEOUT, done.state());
        assertEquals(T0.plusSeconds(3600), done.endTime());
        assertFalse(done.completing());
    }
}
