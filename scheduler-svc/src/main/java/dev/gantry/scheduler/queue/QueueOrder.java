package dev.gantry.scheduler.queue;

import dev.gantry.scheduler.model.JobRecord;
import java.util.Comparator;
import java.util.function.ToIntFunction;

/**
 * The order the main pass considers pending jobs in, as Slurm's: the partition's PriorityTier (higher first),
 * then job priority (higher first), then submit time (earlier first), then job id (lower first) as the
 * stable tie-break.
 */
public final class QueueOrder {
    private QueueOrder() {}

    /** @param tierOf a job's partition PriorityTier */
    public static Comparator<JobRecord> of(ToIntFunction<JobRecord> tierOf) {
        return Comparator.<JobRecord>comparingInt(j -> -tierOf.applyAsInt(j))
                .thenComparing(JobRecord::priority, Comparator.reverseOrder())
                .thenComparing(JobRecord::submitTime)
                .thenComparingLong(JobRecord::id);
    }
}
