package dev.gantry.scheduler.preempt;

import static dev.gantry.scheduler.preempt.RunningJobs.NOW;
import static dev.gantry.scheduler.preempt.RunningJobs.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.scheduler.model.Forecast;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Moab's BACKFILLPOLICY PREEMPT: which jobs are preemptable, who may preempt them, and how. */
class BackfillPreemptionTest {

    private final Map<Long, JobRecord> jobs = new HashMap<>();
    private final BackfillPreemption marks = new BackfillPreemption();

    private JobRecord put(JobRecord j) {
        jobs.put(j.id(), j);
        return j;
    }

    /** A run as backfill starts it over a reservation: the record carries the mark. */
    private static JobRecord marked(RunningJobs.Builder b) {
        return b.build().toBuilder().backfillPreemptable(true).build();
    }

    @Test
    void thePolicyIsPerPartition_FirstfitByDefault() {
        ClusterConfig c = RunningJobs.config("PartitionName=low Nodes=ALL BackfillPolicy=PREEMPT\n"
                + "PartitionName=high Nodes=ALL\n");

        assertTrue(BackfillPreemption.allowedIn(c.partition("low").orElseThrow()));
        assertFalse(BackfillPreemption.allowedIn(c.partition("high").orElseThrow()));
        assertFalse(BackfillPreemption.allowedIn(null));
        assertTrue(BackfillPreemption.anyIn(c.partitions()));
        assertFalse(BackfillPreemption.anyIn(RunningJobs.config("PartitionName=p Nodes=ALL\n").partitions()));
    }

    @Test
    void onlyMarkedRunsStillRunningAreCandidates_latestStartedFirst() {
        marks.mark(put(marked(aJob(1).on("n1").ranFor(600))));
        marks.mark(put(marked(aJob(2).on("n2").ranFor(60))));
        marks.mark(put(aJob(3).on("n3").ranFor(30).build())); // an ordinary job: never a candidate
        marks.mark(put(marked(aJob(4).on("n4").ranFor(10).completing()))); // already ending

        assertEquals(List.of(2L, 1L), marks.candidates(jobs::get));
    }

    @Test
    void aMarkCountsForItsRunOnly_aRequeuedJobStartedAgainIsOrdinary() {
        JobRecord run = put(marked(aJob(1).on("n1").ranFor(600)));
        marks.mark(run);
        JobRecord requeued = put(run.toBuilder().state(JobState.PENDING, NOW).completing(true).build());
        assertFalse(requeued.backfillPreemptable(), "a requeue ends the marked run");
        assertEquals(List.of(), marks.candidates(jobs::get));

        put(requeued.toBuilder().completing(false).state(JobState.RUNNING, NOW).startTime(NOW).build()); // ordinary start
        assertEquals(List.of(), marks.candidates(jobs::get));
        marks.forgetEnded(jobs::get);
        assertEquals(List.of(), marks.candidates(jobs::get));
    }

    @Test
    void theMarkIsPartOfTheJob_soAnIndexBuiltFromRestoredJobsFindsIt() {
        JobRecord run = put(marked(aJob(1).on("n1").ranFor(600)));
        put(aJob(2).on("n2").ranFor(60).build());
        JobRecord suspended = marked(aJob(3).on("n3").ranFor(30)).toBuilder().state(JobState.SUSPENDED, NOW).build();
        put(suspended);

        assertTrue(suspended.backfillPreemptable(), "a time-sliced run keeps its mark");
        BackfillPreemption restored = new BackfillPreemption(jobs.values());
        assertEquals(List.of(1L), restored.candidates(jobs::get), "only running marked jobs are preempted");
        put(suspended.toBuilder().state(JobState.RUNNING, NOW).build());
        assertEquals(List.of(3L, 1L), restored.candidates(jobs::get));
        assertFalse(run.toBuilder().state(JobState.COMPLETED, NOW).build().toBuilder().state(JobState.RUNNING, NOW)
                .build().backfillPreemptable(), "an ended run loses the mark for good");
    }

    @Test
    void aPendingJobHoldingAReservationPreempts_whenItsStartHasCome_orWhenItIsFirstInTheQueue() {
        JobRecord pending = aJob(9).pending().build();
        JobRecord later = pending.toBuilder().forecast(new Forecast(NOW.plusSeconds(60), List.of("n1"), true)).build();
        JobRecord due = pending.toBuilder().forecast(new Forecast(NOW, List.of("n1"), true)).build();
        JobRecord estimated = pending.toBuilder().forecast(new Forecast(NOW, List.of("n1"), false)).build();

        assertTrue(BackfillPreemption.mayPreempt(due, false, NOW));
        assertTrue(BackfillPreemption.mayPreempt(later, true, NOW), "the jobs ahead of its reservation ended early");
        assertFalse(BackfillPreemption.mayPreempt(later, false, NOW), "it would jump ahead of its reservation");
        assertFalse(BackfillPreemption.mayPreempt(estimated, true, NOW), "an estimate holds nothing");
        assertFalse(BackfillPreemption.mayPreempt(pending, true, NOW));
        assertFalse(BackfillPreemption.mayPreempt(due.toBuilder().state(JobState.RUNNING, NOW).build(), true, NOW));
    }

    @Test
    void victimsAreRequeuedWhenTheyMayBe_elseCancelled_withoutGraceWhateverTheirTier() {
        marks.mark(put(marked(aJob(1).partition("low").on("n1"))));
        marks.mark(put(marked(aJob(2).partition("low").on("n2").noRequeue())));

        PreemptionPlan.Go go = assertInstanceOf(PreemptionPlan.Go.class, marks.plan(9, List.of(1L, 2L), jobs::get));

        assertEquals(List.of(new VictimPlan(1, PreemptAction.REQUEUE, PreemptAction.REQUEUE, 0, false),
                new VictimPlan(2, PreemptAction.CANCEL, PreemptAction.CANCEL, 0, false)), go.victims());
    }

    @Test
    void aStaleAnswerNamingAnUnmarkedJobIsRefused() {
        marks.mark(put(marked(aJob(1).on("n1"))));
        put(aJob(2).on("n2").build());

        PreemptionPlan.Refused no = assertInstanceOf(PreemptionPlan.Refused.class,
                marks.plan(9, List.of(1L, 2L), jobs::get));
        assertEquals(PreemptionPlan.Why.VICTIM_PROTECTED, no.why());
    }
}
