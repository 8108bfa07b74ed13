package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * When a scheduling pass last considered each pending job, and which pass: scontrol's LastSchedEval and
 * Scheduler=Main|Backfill|Backfill:*, after Slurm 22.05's job last_sched_eval and its BACKFILL_SCHED and BACKFILL_LAST
 * flags (src/slurmctld/job_scheduler.c, src/plugins/sched/backfill/backfill.c, src/api/job_info.c):
 * <ul>
 *   <li>a job is evaluated at its submission (by no pass: Scheduler=Main);</li>
 *   <li>the main pass evaluates each job it sends to select-svc, and clears the backfill mark of every pending job;</li>
 *   <li>the backfill pass evaluates and marks each job it tested; a pending job it evaluated in its latest pass is
 *       shown {@code Backfill:*};</li>
 *   <li>a started job keeps what its start was: the pass that started it ({@link JobRecord#startedByBackfill}), at
 *       its start time.</li>
 * </ul>
 * Pending jobs' evaluations change every pass, so they are kept here, in memory, not in the job records (which would
 * then be written and published every pass); after a controller restart a pending job shows its submission again
 * until a pass looks at it. Controller thread only.
 */
final class SchedEvals {

    /** One evaluation of a pending job. */
    private record Eval(Instant at, boolean backfill) {}

    private final Map<Long, Eval> pending = new HashMap<>();
    /** When the latest main pass evaluated its jobs: it cleared every pending job's backfill mark then. */
    private Instant lastMain = Instant.MIN;
    /** When the latest backfill pass evaluated its jobs; null before the first. */
    private Instant lastBackfill;

    /**
     * A main pass at {@code at} considered {@code candidates}; {@code stillPending} tells which job ids are pending,
     * so the evaluations of jobs that started or ended since are dropped.
     */
    void mainPass(Collection<JobRecord> candidates, Instant at, LongPredicate stillPending) {
        pending.keySet().removeIf(id -> !stillPending.test(id));
        Eval eval = new Eval(at, false);
        for (JobRecord j : candidates) {
            pending.put(j.id(), eval);
        }
        lastMain = at;
    }

    /** A backfill pass at {@code at} tested {@code tested} (job ids). */
    void backfillPass(Collection<Long> tested, Instant at) {
        Eval eval = new Eval(at, true);
        for (long id : tested) {
            pending.put(id, eval);
        }
        lastBackfill = at;
    }

    /** Adds LastSchedEval and which pass to a job's answer. */
    void addTo(Job.Builder answer, JobRecord j) {
        if (j.state() != JobState.PENDING) {
            Instant at = j.startTime() != null ? j.startTime() : j.submitTime();
            answer.setLastSchedEval(JobProtos.ts(at)).setSchedByBackfill(j.startedByBackfill() && j.startTime() != null);
            return;
        }
        Eval e = pending.get(j.id());
        if (e == null) {
            answer.setLastSchedEval(JobProtos.ts(j.submitTime())).setSchedByBackfill(false);
            return;
        }
        boolean backfill = e.backfill() && !e.at().isBefore(lastMain); // a later main pass cleared the mark
        answer.setLastSchedEval(JobProtos.ts(e.at())).setSchedByBackfill(backfill)
                .setSchedInLastBackfill(backfill && lastBackfill != null && !e.at().isBefore(lastBackfill));
    }
}
