package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Running jobs past their time limit end TIMEOUT through the kill sequence (Slurm's
 * https://slurm.schedmd.com/slurm.conf.html#OPT_OverTimeLimit): a job may run {@code TimeLimit + OverTimeLimit}, time
 * spent suspended not counted. UNLIMITED jobs (-1), and every job when OverTimeLimit is UNLIMITED (-1), run on.
 */
public final class TimeLimits {

    private TimeLimits() {}

    /** Whether {@code j} has reached its limit at {@code now}. */
    public static boolean expired(JobRecord j, long overTimeSeconds, Instant now) {
        if (j.state() != JobState.RUNNING || j.completing() || j.timeLimitSeconds() < 0 || overTimeSeconds < 0) {
            return false;
        }
        return !now.isBefore(j.startTime().plusSeconds(j.timeLimitSeconds() + j.suspendedSeconds() + overTimeSeconds));
    }

    /** Every job of {@code jobs} past its limit: TIMEOUT, completing, its kill sequence started. */
    public static Decision enforce(Collection<JobRecord> jobs, long overTimeSeconds, Instant now) {
        List<JobRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (JobRecord j : jobs) {
            if (expired(j, overTimeSeconds, now)) {
                JobRecord t = j.toBuilder().state(JobState.TIMEOUT, now).completing(true).endTime(now)
                        .endNote("TimeLimit").build();
                records.add(t);
                effects.add(new Effect.Persist(t));
                effects.add(new Effect.Terminate(t, "time limit"));
                effects.add(new Effect.Note(false, "job " + j.id() + " reached its time limit"));
            }
        }
        return new Decision(records, effects);
    }
}
