package dev.gantry.scheduler.preempt;

import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.util.Comparator;

/**
 * The order in which candidate victims are handed to select-svc, most preemptable first — Slurm 22.05's
 * (src/slurmctld/preempt.c, {@code slurm_find_preemptable_jobs}): the candidates are collected in job list order and
 * sorted by the preempt plugin's priority, ascending — the partition PriorityTier (preempt/partition_prio,
 * preempt_partition_prio.c) or the QOS priority (preempt/qos, preempt_qos.c) in the high 16 bits and the node count in
 * the low bits, "so we can preempt smaller jobs rather than larger jobs" ({@code _gen_job_prio}); with
 * SchedulerParameters=preempt_youngest_first (also PreemptParameters=youngest_first, its name from Slurm 23.02), by start
 * time, latest first ({@code _sort_by_youngest}). {@code list_sort} is glibc's qsort, a merge sort, so equal keys keep
 * job list order: jobs are appended to it when created (job_mgr.c), i.e. oldest id first. So among equal jobs the
 * oldest is preempted first (https://slurm.schedmd.com/preempt.html, "A Simple Example": 490 suspends 485, 486 and
 * 487, not the latest started 487, 488, 489; Slurm 22.05 here: of five equal jobs 1..5, jobs 1, 2, 3).
 * <p>
 * Default order, in the code's order:
 * <ol>
 *   <li>the PreemptType's rank, lower first: QOS priority (qos) or partition PriorityTier (partition_prio);</li>
 *   <li>nodes held, fewer first;</li>
 *   <li>job id, lower first (Slurm's job list order).</li>
 * </ol>
 * youngest_first: start time, latest first; then job id, higher first — the younger job by submission. (Slurm keeps
 * job list order among equal start times, which it counts in whole seconds: five jobs started in the same second lose
 * 1, 2, 3 even with preempt_youngest_first. Gantry ranks by the exact start and calls the later submission younger.)
 * The order does not depend on the preemptor, so one sort serves every preemptor of a cycle ({@link VictimPool}).
 */
public final class VictimOrder {
    private VictimOrder() {}

    /** A job's sort key, computed once. {@code start} is epoch nanoseconds, Long.MIN_VALUE when it has not started. */
    record Key(JobRecord job, int rank, int nodes, long start) {}

    private static final Comparator<Key> DEFAULT = Comparator.comparingInt(Key::rank)
            .thenComparingInt(Key::nodes)
            .thenComparingLong(k -> k.job().id());

    private static final Comparator<Key> YOUNGEST_FIRST = Comparator.comparingLong(Key::start).reversed()
            .thenComparing(Comparator.comparingLong((Key k) -> k.job().id()).reversed());

    /** The order as a comparator of jobs (computes the keys on every comparison; {@link VictimPool} sorts keys). */
    public static Comparator<JobRecord> of(PreemptSettings settings) {
        Comparator<Key> keys = keyOrder(settings);
        return (a, b) -> keys.compare(key(settings, a), key(settings, b));
    }

    static Comparator<Key> keyOrder(PreemptSettings settings) {
        return settings.parameters().youngestFirst() ? YOUNGEST_FIRST : DEFAULT;
    }

    static Key key(PreemptSettings settings, JobRecord j) {
        // preempt_qos.c keeps 16 bits of the QOS priority: those at 0xffff and above rank alike.
        int rank = settings.type() == PreemptType.QOS ? Math.min(settings.qos(j.controls().qos()).priority(), 0xffff)
                : settings.partition(j.partition()).tier();
        Instant start = j.startTime();
        long nanos = start == null ? Long.MIN_VALUE : start.getEpochSecond() * 1_000_000_000L + start.getNano();
        return new Key(j, rank, j.allocation().size(), nanos);
    }
}
