package dev.gantry.scheduler.lifecycle;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.lifecycle.Jobs.effects;
import static dev.gantry.scheduler.lifecycle.Jobs.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobExitTest {

    static final Instant NOW = T0.plusSeconds(600);

    static JobExit.Report exit(int code, int signal) {
        return new JobExit.Report("n1", null, false, "", false, code, signal);
    }

    static Stream<Arguments> exitMapping() {
        JobRecord run = running(1, "n1");
        JobRecord cancelled = JobEnding.stopping(run, JobState.CANCELLED, T0.plusSeconds(5)).endTime(T0.plusSeconds(5)).build();
        JobRecord requeued = JobEnding.stopping(run, JobState.PENDING, T0.plusSeconds(5)).pendingReason(PendingReason.PREEMPTED).build();
        return Stream.of(
                Arguments.of("exit 0 completes", run, exit(0, 0),
                        new JobExit.Outcome(JobState.COMPLETED, "", 0, 0)),
                Arguments.of("a non-zero exit code fails", run, exit(3, 0),
                        new JobExit.Outcome(JobState.FAILED, "NonZeroExitCode", 3, 0)),
                Arguments.of("a signal fails", run, exit(0, 9),
                        new JobExit.Outcome(JobState.FAILED, "NonZeroExitCode", 0, 9)),
                Arguments.of("killed at its memory limit", run, new JobExit.Report("n1", null, false, "", true, 137, 9),
                        new JobExit.Outcome(JobState.OUT_OF_MEMORY, "OutOfMemory", 137, 9)),
                Arguments.of("a failed launch fails with exit code 1", run,
                        new JobExit.Report("n1", null, true, "no such user", false, 0, 0),
                        new JobExit.Outcome(JobState.FAILED, "launch failed: no such user", 1, 0)),
                Arguments.of("the kill sequence's state stays", cancelled, exit(0, 15),
                        new JobExit.Outcome(JobState.CANCELLED, cancelled.endNote(), 0, 15)),
                Arguments.of("a requeued job waits again, with no end note (its pending reason stays on it)", requeued,
                        exit(1, 15), new JobExit.Outcome(JobState.PENDING, "", 0, 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void exitMapping(String name, JobRecord job, JobExit.Report report, JobExit.Outcome expected) {
        assertEquals(expected, JobExit.outcome(job, report));
    }

    @Test
    void aSingleNodeJob_endsAtOnce_releasingItsResources_durably() {
        JobRecord run = running(1, "n1");
        Decision d = JobExit.batchHostReported(run, exit(0, 0), 0, List.of(), NOW);

        JobRecord done = d.records().get(0);
        assertEquals(JobState.COMPLETED, done.state());
        assertFalse(done.completing());
        assertEquals(NOW, done.endTime(), "no time in the report: now");
        assertEquals(List.of(new Effect.StopCharging(run, NOW)), effects(d, Effect.StopCharging.class));
        assertEquals(List.of(new Effect.PublishRelease(run)), effects(d, Effect.PublishRelease.class));
        assertEquals(List.of(new Effect.Persist(done)), effects(d, Effect.Persist.class));
        assertEquals(List.of(new Effect.CountEnd(done)), effects(d, Effect.CountEnd.class));
        assertEquals(1, effects(d, Effect.TriggerPass.class).size());
    }

    @Test
    void theAgentsEndTime_isTheJobsEndTime() {
        Instant ended = NOW.minusSeconds(3);
        JobExit.Report r = new JobExit.Report("n1", ended, false, "", false, 0, 0);
        assertEquals(ended, JobExit.batchHostReported(running(1, "n1"), r, 0, List.of(), NOW).records().get(0).endTime());
    }

    @Test
    void aMultiNodeJob_takesItsFinalState_butKeepsItsNodes_untilTheOtherPartsAreGone() {
        JobRecord run = running(1, "n1", "n2", "n3");
        Decision d = JobExit.batchHostReported(run, exit(2, 0), 0, List.of("n2", "n3"), NOW);

        JobRecord ending = d.records().get(0);
        assertEquals(JobState.FAILED, ending.state());
        assertTrue(ending.completing(), "squeue CG until n2 and n3 show nothing left");
        assertEquals(run.allocation(), ending.allocation());
        assertEquals(List.of(new Effect.EndParts(ending, List.of("n2", "n3"), "job ended")), effects(d, Effect.EndParts.class));
        assertEquals(List.of(), effects(d, Effect.PublishRelease.class));
        assertEquals(List.of(), effects(d, Effect.TriggerPass.class));
        assertEquals(List.of(new Effect.Persist(ending)), effects(d, Effect.Persist.class));
    }

    @Test
    void aVictimKilledAtTheEndOfItsGraceTime_isCounted() {
        JobRecord victim = JobEnding.stopping(running(1, "n1"), JobState.PREEMPTED, T0.plusSeconds(100))
                .endTime(T0.plusSeconds(130)).preemptTime(T0.plusSeconds(100)).build();
        Decision killed = JobExit.batchHostReported(victim, exit(0, 9), 30, List.of(), T0.plusSeconds(131));
        Decision leftInTime = JobExit.batchHostReported(victim, exit(0, 0), 30, List.of(), T0.plusSeconds(110));

        assertEquals(List.of(new Effect.CountGraceKill("debug")), effects(killed, Effect.CountGraceKill.class));
        assertEquals(List.of(), effects(leftInTime, Effect.CountGraceKill.class));
        assertEquals(T0.plusSeconds(110), leftInTime.records().get(0).endTime(), "an earlier exit beats the deadline");
    }

    /** Job 1 running on n1 in its third run (restart count 2). */
    static JobRecord inThirdRun() {
        JobRecord j = running(1, "n1");
        return j.toBuilder().controls(j.controls().withRestart().withRestart()).build();
    }

    static JobExit.Report exitOfRun(int run) {
        return new JobExit.Report("n1", null, false, "", false, 0, 0, run);
    }

    static Stream<Arguments> anotherRunsReport_changesNothing_andIsCounted() {
        return Stream.of(Arguments.of("a late report of the first run", 0),
                Arguments.of("a late report of the run before", 1),
                Arguments.of("a report of the next run, which has not started", 3),
                Arguments.of("a forged report of a far future run", 7));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void anotherRunsReport_changesNothing_andIsCounted(String name, int run) {
        Decision d = JobExit.batchHostReported(inThirdRun(), exitOfRun(run), 0, List.of(), NOW);

        assertEquals(List.of(), d.records(), "no record changes");
        assertEquals(List.of(), effects(d, Effect.Persist.class));
        assertEquals(List.of(), effects(d, Effect.StopCharging.class));
        assertEquals(List.of(), effects(d, Effect.PublishRelease.class));
        assertEquals(List.of(new Effect.CountStaleRun(JobExit.ReportKind.EXIT)), effects(d, Effect.CountStaleRun.class));
        assertEquals(1, effects(d, Effect.Note.class).size(), "one log line");
        assertTrue(effects(d, Effect.Note.class).get(0).text().contains("run " + run));
    }

    @Test
    void theCurrentRunsReport_endsTheJob() {
        Decision d = JobExit.batchHostReported(inThirdRun(), exitOfRun(2), 0, List.of(), NOW);

        assertEquals(JobState.COMPLETED, d.records().get(0).state());
        assertEquals(List.of(), effects(d, Effect.CountStaleRun.class));
    }

    @Test
    void aReportNamingNoRun_isTheCurrentRuns() {
        assertTrue(JobExit.ofCurrentRun(inThirdRun(), JobExit.UNNAMED_RUN));
        Decision d = JobExit.batchHostReported(inThirdRun(), exit(0, 0), 0, List.of(), NOW);

        assertEquals(JobState.COMPLETED, d.records().get(0).state());
    }

    @Test
    void usageOfAnotherRun_isCountedAsUsage() {
        Decision d = JobExit.otherRun(inThirdRun(), JobExit.ReportKind.USAGE, "n1", 1);

        assertEquals(List.of(new Effect.CountStaleRun(JobExit.ReportKind.USAGE)), effects(d, Effect.CountStaleRun.class));
        assertEquals(List.of(), d.records());
    }
}
