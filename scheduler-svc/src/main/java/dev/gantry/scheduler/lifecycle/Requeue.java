package dev.gantry.scheduler.lifecycle;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.control.JobEdits;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.List;

/**
 * scontrol requeue and requeuehold (https://slurm.schedmd.com/scontrol.html#OPT_requeue): a running or suspended job
 * is killed and waits again, same id, once its processes are gone ({@link JobEnding#backInQueue} counts the restart
 * then); a finished one goes back to the queue at once with one more restart. Its owner or an administrator may requeue
 * it, and only when it allows requeueing. "If a suspended job is requeued, it will be placed in a held state."
 */
public final class Requeue {

    private Requeue() {}

    /** The refusal, or the job's requeued version. */
    public static JobEdits.Edit request(JobRecord j, JobEdits.Caller caller, boolean hold, Instant now) {
        if (!caller.admin() && !j.user().equals(caller.user())) {
            return new JobEdits.Refused(JobEdits.DENIED);
        }
        if (j.state() == JobState.PENDING) {
            return new JobEdits.Refused(JobEdits.PENDING);
        }
        if (j.completing()) {
            return new JobEdits.Refused("Job/step already completing or completed");
        }
        if (!j.controls().requeue()) {
            return new JobEdits.Refused(JobEdits.DISABLED);
        }
        boolean held = hold || j.state() == JobState.SUSPENDED;
        JobControls c = held ? j.controls().withHold(JobControls.Hold.USER) : j.controls();
        PendingReason reason = held ? PendingReason.HELD_USER : PendingReason.NONE;
        if (j.state().holdsResources()) {
            return new JobEdits.Changed(JobEnding.stopping(j, JobState.PENDING, now).controls(c).pendingReason(reason)
                    .build());
        }
        return new JobEdits.Changed(j.toBuilder().state(JobState.PENDING, now).allocation(List.of()).startTime(null)
                .endTime(null).exit(0, 0).controls(c.withRestart()).pendingReason(reason).build());
    }

    /** Carries out an accepted requeue: kept durably, and a job still holding its nodes is killed. */
    public static Decision of(JobRecord requeued) {
        Decision kept = Decision.kept(requeued);
        return requeued.completing() ? kept.with(new Effect.Terminate(requeued, "requeued")) : kept;
    }
}
