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

    /**
     * Sorts jobs into queue order in place. The same order as {@link #of}, computed from one key per job instead of
     * a comparator chain that boxes and looks up the tier at every comparison (the main pass sorts every pending job).
     */
    public static void sort(java.util.List<JobRecord> jobs, ToIntFunction<JobRecord> tierOf) {
        int n = jobs.size();
        long[][] keys = new long[n][];
        for (int i = 0; i < n; i++) {
            JobRecord j = jobs.get(i);
            java.time.Instant t = j.submitTime();
            keys[i] = new long[] {-tierOf.applyAsInt(j), -j.priority(), t.getEpochSecond(), t.getNano(), j.id(), i};
        }
        java.util.Arrays.sort(keys, (a, b) -> {
            for (int k = 0; k < 5; k++) {
                int c = Long.compare(a[k], b[k]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        JobRecord[] sorted = new JobRecord[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = jobs.get((int) keys[i][5]);
        }
        for (int i = 0; i < n; i++) {
            jobs.set(i, sorted[i]);
        }
    }

    /** @param tierOf a job's partition PriorityTier */
    public static Comparator<JobRecord> of(ToIntFunction<JobRecord> tierOf) {
        return Comparator.<JobRecord>comparingInt(j -> -tierOf.applyAsInt(j))
                .thenComparing(JobRecord::priority, Comparator.reverseOrder())
                .thenComparing(JobRecord::submitTime)
                .thenComparingLong(JobRecord::id);
    }
}
