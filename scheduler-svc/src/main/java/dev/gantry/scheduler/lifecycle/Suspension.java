package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;

/**
 * Suspend and resume (gang scheduling's time slices, SUSPEND preemption, scontrol suspend/resume): a suspended job
 * keeps its allocation (an operator's suspension gives its CPUs back, {@link JobRecord#adminSuspended()}), is not charged
 * usage, and its time suspended counts neither as run time nor against its time limit (Slurm's
 * https://slurm.schedmd.com/gang_scheduling.html).
 */
public final class Suspension {

    private Suspension() {}

    /**
     * A running job suspended by gang-svc or a preemption: SUSPENDED from {@code now}.
     *
     * @param freeze false when the agents were already told to stop it (a preemption freezes its victims before the
     *     preemptor's launch)
     */
    public static Decision suspend(JobRecord j, Instant now, boolean freeze) {
        JobRecord s = j.toBuilder().state(JobState.SUSPENDED, now).build();
        Decision d = Decision.of(s, new Effect.StopCharging(j, now), new Effect.PublishChange(s, false),
                new Effect.Persist(s));
        return freeze ? d.with(new Effect.Freeze(s)) : d;
    }

    /** A suspended job resumed by gang-svc: RUNNING from {@code now}, its suspension counted as suspended time. */
    public static Decision resume(JobRecord j, Instant now) {
        JobRecord r = j.toBuilder().suspendedSeconds(JobEnding.suspendedUntil(j, now)).state(JobState.RUNNING, now).build();
        return Decision.of(r, new Effect.StartCharging(r, now), new Effect.PublishChange(r, false), new Effect.Thaw(r),
                new Effect.Persist(r));
    }

    /**
     * scontrol suspend or resume of {@code before}, whose new version is {@code after} (the rules that allow it and make
     * it are {@code control.SuspendEdits}): the nodes are published too, as the job's CPUs leave or come back.
     */
    public static Decision manual(JobRecord before, JobRecord after, boolean suspend, Instant now) {
        return Decision.of(after, suspend ? new Effect.StopCharging(before, now) : new Effect.StartCharging(after, now),
                new Effect.PublishChange(after, true), suspend ? new Effect.Freeze(after) : new Effect.Thaw(after),
                new Effect.CountManualSuspension(suspend), new Effect.Persist(after));
    }
}
