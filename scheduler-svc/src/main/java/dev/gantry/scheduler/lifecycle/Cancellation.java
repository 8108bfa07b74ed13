package dev.gantry.scheduler.lifecycle;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * scancel (https://slurm.schedmd.com/scancel.html): a pending job ends CANCELLED now; a running or suspended one goes
 * through the kill sequence, CANCELLED and completing until its processes are gone. Users cancel their own jobs,
 * operators and administrators any (Slurm's AdminLevel); cancelling another user's job is audited.
 */
public final class Cancellation {

    private Cancellation() {}

    /** @param error null when cancelled, else Slurm's reason */
    public record Outcome(long jobId, String error) {}

    /** The answer for each id, in order, and the decision that carries out the cancels. */
    public record Result(List<Outcome> outcomes, Decision decision) {}

    /**
     * Cancels each id as {@code who} (null: not checked).
     *
     * @param targets what an id names: the job, or every known task of an array; empty when unknown
     * @param nextJobId the id the next submission gets: a smaller unknown id names a job already forgotten
     */
    public static Result cancel(List<Long> ids, LongFunction<List<JobRecord>> targets, Requester who, long nextJobId,
            Instant now) {
        boolean anyJob = who == null || who.privileged();
        String user = who == null ? null : who.user();
        List<Outcome> out = new ArrayList<>();
        List<JobRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (long id : ids) {
            List<JobRecord> named = targets.apply(id);
            if (named.isEmpty()) {
                out.add(new Outcome(id, id > 0 && id < nextJobId
                        ? "Job/step already completing or completed" : "Invalid job id specified"));
                continue;
            }
            boolean any = false;
            String denied = null;
            for (JobRecord j : named) {
                if (!anyJob && !j.user().equals(user)) {
                    denied = "Access/permission denied";
                    continue;
                }
                if (j.state().isFinished() || j.completing()) {
                    continue;
                }
                if (who != null) {
                    effects.add(new Effect.AuditOnJob(who, "cancelled", j, now));
                }
                JobRecord next;
                if (j.state() == JobState.PENDING) {
                    next = j.toBuilder().state(JobState.CANCELLED, now).endTime(now).forecast(null).build();
                    effects.add(new Effect.CountEnd(next));
                } else {
                    next = JobEnding.stopping(j, JobState.CANCELLED, now).endTime(now).build();
                    effects.add(new Effect.Terminate(next, "cancelled"));
                }
                records.add(next);
                effects.add(new Effect.Persist(next));
                any = true;
            }
            out.add(new Outcome(id, any ? null : denied != null ? denied : "Job/step already completing or completed"));
        }
        effects.add(Effect.TRIGGER_PASS);
        return new Result(out, new Decision(records, effects));
    }
}
