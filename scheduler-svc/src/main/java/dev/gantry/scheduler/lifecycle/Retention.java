package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Which jobs the controller keeps in memory: those not finished, and finished ones for MinJobAge after their end
 * (https://slurm.schedmd.com/slurm.conf.html#OPT_MinJobAge); older ones stay in the database for GetJob and accounting.
 */
public final class Retention {

    private Retention() {}

    /** Forgets the finished jobs that ended more than {@code minJobAgeSeconds} before {@code now}. */
    public static Decision purge(Collection<JobRecord> jobs, long minJobAgeSeconds, Instant now) {
        Instant cutoff = now.minusSeconds(minJobAgeSeconds);
        List<Effect> forget = new ArrayList<>();
        for (JobRecord j : jobs) {
            if (j.state().isFinished() && !j.completing() && j.endTime() != null && j.endTime().isBefore(cutoff)) {
                forget.add(new Effect.Forget(j.id()));
            }
        }
        return new Decision(List.of(), forget);
    }
}
