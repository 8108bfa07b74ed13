package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.Forecast;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.List;
import java.util.Objects;

/**
 * What a pass tells a job that stays pending: its reason (squeue's NODELIST(REASON), Slurm's
 * https://slurm.schedmd.com/job_reason_codes.html) and, from backfill, where and when it expects it to start (squeue
 * --start). Neither is persisted: every pass recomputes them, and a restarted controller's first pass sets them again.
 */
public final class Pending {

    private Pending() {}

    /** A pending job's new reason; nothing when the job is no longer pending or already has it. */
    public static Decision reason(JobRecord j, String reason) {
        if (j == null || j.state() != JobState.PENDING || reason.equals(j.reason())) {
            return Decision.NONE;
        }
        return Decision.of(j.toBuilder().reason(reason).build());
    }

    /** Backfill's forecast for a job and its reason; nothing when both are unchanged. */
    public static Decision forecast(JobRecord j, Forecast f, String reason) {
        if (Objects.equals(f, j.forecast()) && reason.equals(j.reason())) {
            return Decision.NONE;
        }
        return Decision.of(j.toBuilder().forecast(f).reason(reason).build());
    }

    /** Pending jobs whose priority the periodic recalculation changed: kept (unpersisted), and a pass asked for. */
    public static Decision reprioritized(List<JobRecord> changed) {
        return changed.isEmpty() ? Decision.NONE : new Decision(changed, List.of(Effect.TRIGGER_PASS));
    }
}
