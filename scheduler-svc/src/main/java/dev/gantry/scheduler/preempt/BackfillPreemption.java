package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.BackfillPolicy;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Moab's BACKFILLPOLICY PREEMPT, per partition ({@code BackfillPolicy=PREEMPT}): a backfill job of such a partition
 * may start although its time limit overlaps a held reservation; it is then marked preemptable. A pending job that
 * holds a reservation may preempt the marked jobs whatever PriorityTier or QOS say (REQUEUE when the job may be
 * requeued, else CANCEL; no grace time) when its reservation's start has come, or when it is the first job of the
 * queue still pending (the jobs ahead of its reservation may have ended early; a later job never preempts ahead of
 * its reservation, which could delay the ones before it), and select-svc answers it could start now with them gone.
 *
 * <p>The mark is part of the job ({@link JobRecord#backfillPreemptable()}, stored with it), so it survives a
 * controller restart; it counts only for the run it was made for (the record drops it when the job is requeued or
 * ends), so a requeued job started again by an ordinary pass is not preemptable. This class keeps an index of the
 * marked jobs' ids (controller thread), built from the jobs the controller holds when it is created and fed by
 * {@link #mark}.
 */
public final class BackfillPreemption {

    /** Ids of jobs whose record may carry the mark; the record decides. */
    private final Set<Long> marked = new HashSet<>();

    /** An empty index (no job is marked yet). */
    public BackfillPreemption() {}

    /** The index of the marked jobs among {@code jobs} (at start: the jobs restored from the database). */
    public BackfillPreemption(Collection<JobRecord> jobs) {
        jobs.stream().filter(JobRecord::backfillPreemptable).forEach(j -> marked.add(j.id()));
    }

    /** Whether backfill may start the job's partition's jobs over reservations. */
    public static boolean allowedIn(PartitionConfig partition) {
        return partition != null && partition.backfillPolicy() == BackfillPolicy.PREEMPT;
    }

    /** Whether some partition of the cluster has the policy (the preemption pass must then run). */
    public static boolean anyIn(List<PartitionConfig> partitions) {
        return partitions.stream().anyMatch(BackfillPreemption::allowedIn);
    }

    /**
     * Indexes a run just started by backfill over a reservation. Precondition: {@code started} carries the mark
     * ({@link JobRecord#backfillPreemptable()}; the controller starts it so).
     */
    public void mark(JobRecord started) {
        if (started.backfillPreemptable()) {
            marked.add(started.id());
        }
    }

    /** Whether this run of the job was started preemptable and is running. */
    public static boolean preemptable(JobRecord job) {
        return job.backfillPreemptable() && ClusterState.holds(job) && !job.completing()
                && job.state() == JobState.RUNNING;
    }

    /** Drops from the index the jobs whose record no longer carries the mark (call once per pass). */
    public void forgetEnded(LongFunction<JobRecord> jobs) {
        marked.removeIf(id -> {
            JobRecord j = jobs.apply(id);
            return j == null || !j.backfillPreemptable();
        });
    }

    /** Whether a pending job holds a backfill reservation. */
    public static boolean reserved(JobRecord pending) {
        return pending.state() == JobState.PENDING && !pending.completing() && pending.forecast() != null
                && pending.forecast().reserved();
    }

    /**
     * Whether a pending job may preempt marked jobs now: it holds a reservation, and its start has come or it is the
     * first job of the queue still pending.
     */
    public static boolean mayPreempt(JobRecord pending, boolean firstPending, Instant now) {
        return reserved(pending) && (firstPending || !pending.forecast().start().isAfter(now));
    }

    /** The marked jobs still running, the most recently started first (they have lost the least work). */
    public List<Long> candidates(LongFunction<JobRecord> jobs) {
        List<JobRecord> out = new ArrayList<>();
        for (long id : marked) {
            JobRecord j = jobs.apply(id);
            if (j != null && preemptable(j)) {
                out.add(j);
            }
        }
        out.sort(Comparator.comparing(JobRecord::startTime).reversed().thenComparing(JobRecord::id));
        return out.stream().map(JobRecord::id).toList();
    }

    /**
     * The plan for the victims select-svc named: each REQUEUE when it may be requeued, else CANCEL, at once; refused
     * when one of them is no longer a marked run (the answer is stale).
     */
    public PreemptionPlan plan(long preemptorId, List<Long> victims, LongFunction<JobRecord> jobs) {
        List<VictimPlan> plans = new ArrayList<>();
        for (long id : victims) {
            JobRecord v = jobs.apply(id);
            if (v == null || !preemptable(v)) {
                return new PreemptionPlan.Refused(preemptorId, PreemptionPlan.Why.VICTIM_PROTECTED,
                        "job " + id + " is no longer a preemptable backfill job");
            }
            PreemptAction mode = v.controls().requeue() ? PreemptAction.REQUEUE : PreemptAction.CANCEL;
            plans.add(new VictimPlan(id, mode, mode, 0, false));
        }
        return new PreemptionPlan.Go(preemptorId, plans, List.of());
    }
}
