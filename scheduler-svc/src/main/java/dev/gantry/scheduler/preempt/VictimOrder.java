package dev.gantry.scheduler.preempt;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import java.time.Instant;
import java.util.Comparator;

/**
 * The order in which candidate victims are handed to select-svc, most preemptable first. Slurm sorts the candidates by
 * its preempt plugin's priority, ascending: the QOS priority (preempt/qos) or the partition PriorityTier
 * (preempt/partition_prio) in the high bits and the node count in the low bits, "so we can preempt smaller jobs rather
 * than larger jobs"; or, with PreemptParameters=youngest_first, by start time, latest first
 * (https://slurm.schedmd.com/preempt.html, "Preemption Design and Operation"; src/interfaces/preempt.c).
 * <p>
 * Default order, in the code's order:
 * <ol>
 *   <li>the PreemptType's rank, lower first: QOS priority (qos) or partition PriorityTier (partition_prio);</li>
 *   <li>nodes held, fewer first;</li>
 *   <li>Gantry's tie-breaks: the other rank (partition tier under qos, QOS priority under partition_prio), lower
 *       first; CPUs held, fewer first; start time, latest first; job id, higher first.</li>
 * </ol>
 * youngest_first: start time, latest first, then the default order. Slurm's sort is not stable; ours ends on the job id.
 * The order does not depend on the preemptor, so one sort serves every preemptor of a cycle ({@link VictimPool}).
 */
public final class VictimOrder {
    private VictimOrder() {}

    /** A job's sort key, computed once. {@code start} is epoch nanoseconds, Long.MIN_VALUE when it has not started. */
    record Key(JobRecord job, int rank, int nodes, int other, int cpus, long start) {}

    private static final Comparator<Key> LATEST_FIRST = (a, b) -> Long.compare(b.start(), a.start());

    private static final Comparator<Key> DEFAULT = Comparator.comparingInt(Key::rank)
            .thenComparingInt(Key::nodes)
            .thenComparingInt(Key::other)
            .thenComparingInt(Key::cpus)
            .thenComparing(LATEST_FIRST)
            .thenComparing((a, b) -> Long.compare(b.job().id(), a.job().id()));

    private static final Comparator<Key> YOUNGEST_FIRST = LATEST_FIRST.thenComparing(DEFAULT);

    /** The order as a comparator of jobs (computes the keys on every comparison; {@link VictimPool} sorts keys). */
    public static Comparator<JobRecord> of(PreemptSettings settings) {
        Comparator<Key> keys = keyOrder(settings);
        return (a, b) -> keys.compare(key(settings, a), key(settings, b));
    }

    static Comparator<Key> keyOrder(PreemptSettings settings) {
        return settings.parameters().youngestFirst() ? YOUNGEST_FIRST : DEFAULT;
    }

    static Key key(PreemptSettings settings, JobRecord j) {
        int qos = settings.qos(j.controls().qos()).priority();
        int tier = settings.partition(j.partition()).tier();
        boolean byQos = settings.type() == PreemptType.QOS;
        int cpus = 0;
        for (NodeShare s : j.allocation()) {
            cpus += s.cpus();
        }
        Instant start = j.startTime();
        long nanos = start == null ? Long.MIN_VALUE : start.getEpochSecond() * 1_000_000_000L + start.getNano();
        return new Key(j, byQos ? qos : tier, j.allocation().size(), byQos ? tier : qos, cpus, nanos);
    }
}
