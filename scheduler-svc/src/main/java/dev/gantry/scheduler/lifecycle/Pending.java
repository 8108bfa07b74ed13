package dev.gantry.scheduler.lifecycle;

import dev.gantry.common.job.PendingReason;
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
    public static Decision reason(JobRecord j, PendingReason reason) {
        if (j == null || j.state() != JobState.PENDING || reason == j.pendingReason()) {
            return Decision.NONE;
        }
        return Decision.of(j.toBuilder().pendingReason(reason).build());
    }

    /** Backfill's forecast for a job and its reason; nothing when both are unchanged. */
    public static Decision forecast(JobRecord j, Forecast f, PendingReason reason) {
        if (Objects.equals(f, j.forecast()) && reason == j.pendingReason()) {
            return Decision.NONE;
        }
        return Decision.of(j.toBuilder().forecast(f).pendingReason(reason).build());
    }

    /**
     * A pending reason as select-svc's answers name it: the reason of that name; Resources for an empty name
     * (select-svc could not place the job and gave no reason) or one no reason has (another version's).
     */
    public static PendingReason ofAnswer(String slurmName) {
        return PendingReason.ofSlurmName(slurmName).orElse(PendingReason.RESOURCES);
    }

    /** Pending jobs whose priority the periodic recalculation changed: kept (unpersisted), and a pass asked for. */
    public static Decision reprioritized(List<JobRecord> changed) {
        return changed.isEmpty() ? Decision.NONE : new Decision(changed, List.of(Effect.TRIGGER_PASS));
    }
}
