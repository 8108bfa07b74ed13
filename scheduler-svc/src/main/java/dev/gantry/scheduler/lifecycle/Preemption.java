package dev.gantry.scheduler.lifecycle;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.preempt.Escalation;
import dev.gantry.scheduler.preempt.VictimPlan;
import java.time.Instant;

/**
 * A CANCEL or REQUEUE preemption victim (https://slurm.schedmd.com/preempt.html): it gets SIGTERM now and until
 * GraceTime + KillWait to exit. A requeued victim waits with Slurm's reason (squeue PD (Preempted)) until a pass gives it
 * Resources or another; a cancelled one ends PREEMPTED, at the end of its grace time at the latest, with a note naming
 * its preemptor (and the escalation of its mode, if any). Both record PreemptTime. SUSPEND victims are suspended with
 * the preemptor's start, not here.
 */
public final class Preemption {

    private Preemption() {}

    /**
     * @param v the plan's verdict on the victim (its mode is CANCEL or REQUEUE)
     * @param escalation how its configured mode was escalated; null when it was not
     */
    public static Decision victim(JobRecord victim, VictimPlan v, Escalation escalation, long preemptorId, Instant now) {
        String note = "Preempted by job " + preemptorId + (escalation == null ? ""
                : " (" + escalation.from() + " escalated to " + escalation.to() + ": " + escalation.why() + ")");
        JobRecord next = v.mode() == PreemptAction.REQUEUE
                ? JobEnding.stopping(victim, JobState.PENDING, now).pendingReason(PendingReason.PREEMPTED).preemptTime(now)
                        .build()
                : JobEnding.stopping(victim, JobState.PREEMPTED, now).endTime(now.plusSeconds(v.graceSeconds()))
                        .endNote(note).preemptTime(now).build();
        return Decision.of(next, new Effect.Persist(next),
                new Effect.Terminate(next, "preempted by job " + preemptorId, v.graceSeconds()),
                new Effect.CountPreempted(victim, v.mode(), escalation),
                new Effect.Note(false, "job " + v.jobId() + " preempted (" + v.mode() + "): " + note));
    }
}
