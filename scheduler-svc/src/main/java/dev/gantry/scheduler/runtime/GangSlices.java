package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.Keys;
import dev.gantry.common.overlap.OverlapRule;
import dev.gantry.scheduler.control.ResumeOverlap;
import dev.gantry.scheduler.lifecycle.Suspension;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gang-svc's time-slicing and shadow decisions, applied on the controller thread: a suspended job stops being
 * charged usage and its suspended time is kept out of its run time and its time limit.
 *
 * <p>gang-svc decides on a replica of the event stream, which may lag the controller. A decision names the revision
 * of the view it was made on; one about a job whose allocation changed after that revision is refused (gang-svc
 * decides again once it has seen the change), and a resume that would overlap a running job of the same or a higher
 * PriorityTier is refused whatever the revision ({@link ResumeOverlap}): never two overlapping jobs running together.
 * Suspensions come first, so a swap in one call resumes onto the resources it frees.
 */
public final class GangSlices {

    private static final Logger LOG = LoggerFactory.getLogger(GangSlices.class);

    private final ClusterState state;
    private final EventLog events;
    private final LifecycleApplier applier;
    private final AccountingCommands accounting;
    private final SchedulerMetrics metrics;
    private final InstantSource clock;
    private final Executor onController;
    private final Runnable trigger;
    private ResumeOverlap overlap;

    GangSlices(ClusterState state, EventLog events, LifecycleApplier applier, AccountingCommands accounting,
            SchedulerMetrics metrics, InstantSource clock, Executor onController, Runnable trigger) {
        this.state = state;
        this.events = events;
        this.applier = applier;
        this.accounting = accounting;
        this.metrics = metrics;
        this.clock = clock;
        this.onController = onController;
        this.trigger = trigger;
    }

    /** What an ApplySlice did. */
    public record SliceOutcome(List<Long> suspended, List<Long> resumed, List<Long> skipped, List<Long> refused) {}

    /**
     * gang-svc's decision, made on its view at {@code revision}: suspends and resumes jobs where that still applies;
     * durable before the answer.
     */
    public CompletableFuture<SliceOutcome> applySlice(long revision, List<Long> suspend, List<Long> resume) {
        return CompletableFuture.supplyAsync(() -> {
            Instant now = clock.instant();
            List<Long> suspended = new ArrayList<>();
            List<Long> resumed = new ArrayList<>();
            List<Long> skipped = new ArrayList<>();
            List<Long> refused = new ArrayList<>();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (long id : suspend) {
                JobRecord j = state.job(id);
                if (j == null || j.state() != JobState.RUNNING || j.completing()) {
                    skipped.add(id);
                    continue;
                }
                if (stale(id, revision)) {
                    refused.add(id);
                    continue;
                }
                writes.add(suspend(j, now));
                suspended.add(id);
            }
            for (long id : resume) {
                JobRecord j = state.job(id);
                // a job an operator suspended (scontrol suspend) stays suspended until scontrol resume
                if (j == null || j.state() != JobState.SUSPENDED || j.completing() || j.adminSuspended()) {
                    skipped.add(id);
                    continue;
                }
                if (stale(id, revision)) {
                    refused.add(id);
                    continue;
                }
                Optional<Long> blocker = overlap().conflict(j);
                if (blocker.isPresent()) {
                    LOG.info("gang-svc's resume of job {} refused: it would overlap running job {}", id, blocker.get());
                    refused.add(id);
                    continue;
                }
                writes.add(applier.apply(Suspension.resume(j, now)));
                resumed.add(id);
            }
            metrics.slice(suspended.size(), resumed.size());
            metrics.sliceRefusals(refused.size());
            if (!resumed.isEmpty() || !suspended.isEmpty()) {
                trigger.run();
            }
            return new SliceBatch(new SliceOutcome(suspended, resumed, skipped, refused), writes);
        }, onController).thenCompose(b -> CompletableFuture.allOf(b.writes.toArray(CompletableFuture[]::new)).thenApply(v -> b.outcome));
    }

    private record SliceBatch(SliceOutcome outcome, List<CompletableFuture<Void>> writes) {}

    /**
     * Whether a job being started must start suspended (controller thread): gang scheduling applies to its partition
     * and it was allocated onto the resources of a running job of the same or a higher tier (Slurm's gs_job_start:
     * a new job that does not fit the active row is suspended before it runs). gang-svc sees it suspended and gives it
     * its turn; its processes are stopped before their first instruction (LaunchJobRequest.start_suspended).
     */
    boolean startsSuspended(JobRecord job) {
        if (!accounting.preemptSettings().gangFor(job.partition()) || overlap().conflict(job).isEmpty()) {
            return false;
        }
        metrics.slice(1, 0);
        return true;
    }

    /** The job's allocation changed after the decision's view (controller thread). */
    private boolean stale(long jobId, long revision) {
        long changed = events.allocationRevision(jobId);
        if (changed > revision) {
            LOG.debug("gang-svc's decision on job {} refused: made at revision {}, the job changed at {}", jobId, revision, changed);
            return true;
        }
        return false;
    }

    private ResumeOverlap overlap() {
        if (overlap == null) {
            var config = state.config();
            overlap = new ResumeOverlap(state,
                    OverlapRule.of(config.get(Keys.SELECT_TYPE), config.get(Keys.SELECT_TYPE_PARAMETERS).configName()));
        }
        return overlap;
    }

    /**
     * Suspends a running job (controller thread): SUSPENDED from {@code now}, no more usage charged, the change
     * published ({@code allocation_changed}) and its agents told to stop its processes. Returns the durable write.
     */
    CompletableFuture<Void> suspend(JobRecord j, Instant now) {
        return suspend(j, now, true);
    }

    /** @param tellAgents false when the agents were already told to stop it (a preemption freezes victims first) */
    CompletableFuture<Void> suspend(JobRecord j, Instant now, boolean tellAgents) {
        return applier.apply(Suspension.suspend(j, now, tellAgents));
    }

}
