package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * scontrol's LastSchedEval and Scheduler= as Slurm 22.05 keeps them: the submission first, then each pass that considers
 * the job; the main pass clears the backfill mark of every pending job; Backfill:* while the latest backfill pass was
 * the one; a started job keeps the pass that started it.
 */
class SchedEvalsTest {

    final SchedEvals evals = new SchedEvals();
    final JobRecord pending = aJob(1).submitted(T0).build();
    final JobRecord other = aJob(2).submitted(T0).build();

    String shown(JobRecord j) {
        Job.Builder b = Job.newBuilder();
        evals.addTo(b, j);
        String scheduler = !b.getSchedByBackfill() ? "Main" : b.getSchedInLastBackfill() ? "Backfill:*" : "Backfill";
        return "LastSchedEval=+" + (JobProtos.instant(b.getLastSchedEval()).getEpochSecond() - T0.getEpochSecond())
                + " Scheduler=" + scheduler;
    }

    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    @Test
    void untilAPassConsidersIt_aJobShowsItsSubmission_byMain() {
        assertEquals("LastSchedEval=+0 Scheduler=Main", shown(pending));
    }

    @Test
    void eachPassThatConsidersIt_isShown_theLatestBackfillPassWithAStar() {
        evals.mainPass(List.of(pending), at(10), id -> true);
        assertEquals("LastSchedEval=+10 Scheduler=Main", shown(pending));

        evals.backfillPass(List.of(1L), at(20));
        assertEquals("LastSchedEval=+20 Scheduler=Backfill:*", shown(pending));

        evals.backfillPass(List.of(2L), at(30)); // a later backfill pass that did not test it
        assertEquals("LastSchedEval=+20 Scheduler=Backfill", shown(pending));
    }

    @Test
    void theMainPass_clearsTheBackfillMark_ofJobsItDidNotConsider() {
        evals.backfillPass(List.of(1L, 2L), at(20));
        evals.mainPass(List.of(other), at(25), id -> true); // job 1 held, say: not a candidate
        assertEquals("LastSchedEval=+20 Scheduler=Main", shown(pending));
        assertEquals("LastSchedEval=+25 Scheduler=Main", shown(other));
    }

    @Test
    void aStartedJob_showsThePassThatStartedIt_atItsStart() {
        JobRecord byBackfill = pending.toBuilder().state(JobState.RUNNING, at(40)).startTime(at(40))
                .allocation(List.of(new NodeShare("n1", 1, 0))).startedByBackfill(true).build();
        assertEquals("LastSchedEval=+40 Scheduler=Backfill", shown(byBackfill));
        JobRecord byMain = byBackfill.toBuilder().startedByBackfill(false).build();
        assertEquals("LastSchedEval=+40 Scheduler=Main", shown(byMain));
        JobRecord requeued = byBackfill.toBuilder().state(JobState.PENDING, at(50)).startTime(null).build();
        assertEquals(false, requeued.startedByBackfill(), "pending again: its next start says which pass");
    }
}
