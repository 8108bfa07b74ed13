package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.BackfillOutcome;
import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.Placement;
import dev.gantry.api.v1.Reservation;
import dev.gantry.api.v1.ReservationMode;
import dev.gantry.common.config.BackfillSettings;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.SelectRequests;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.cycle.PlacementCheck;
import dev.gantry.scheduler.cycle.PlacementRefusal;
import dev.gantry.scheduler.lifecycle.Pending;
import dev.gantry.scheduler.lifecycle.Start;
import dev.gantry.scheduler.model.Forecast;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.BackfillPreemption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slurm's sched/backfill pass: the whole eligible queue, in priority order, goes to select-svc in one EarliestStarts
 * call over its availability profile. Jobs it answers START_NOW delay no held reservation and are started (after the
 * controller's own re-check); the others get their expected StartTime and SchedNodeList. Jobs below
 * bf_min_prio_reserve hold nothing; with bf_reserve=easy only each partition's first blocked job does.
 *
 * <p>With BackfillPolicy=PREEMPT partitions ({@link BackfillPreemption}), the same call names their jobs
 * ({@code over_reservation_job_ids}): select-svc places those it leaves blocked for lack of resources once more,
 * ignoring reservations (with the jobs holding one, in queue order, so what is free now for a higher one is not taken),
 * on what its starts leave free; those that start now are marked preemptable, durably with the job. One call per pass.
 */
final class BackfillScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(BackfillScheduler.class);

    private final PassContext passes;
    private final SelectClient select;
    private final BackfillSettings settings;
    /** The preemptable backfill jobs, or null when no partition has BackfillPolicy=PREEMPT. */
    private final BackfillPreemption preemptable;

    BackfillScheduler(PassContext passes, SelectClient select, BackfillSettings settings,
            BackfillPreemption preemptable) {
        this.passes = passes;
        this.select = select;
        this.settings = settings;
        this.preemptable = preemptable;
    }

    private record Prepared(List<JobRecord> candidates, long revision, Instant now, List<ClusterEvent> changes,
            List<Long> overReservations) {}

    /** One pass; returns the number of jobs started. */
    int run() throws InterruptedException {
        long t0 = System.nanoTime();
        Prepared prepared = passes.call(() -> {
            MainPass.Input in = passes.queue();
            List<Long> over = new ArrayList<>();
            if (preemptable != null) {
                for (JobRecord j : in.candidates()) {
                    if (BackfillPreemption.allowedIn(passes.state.partition(j.partition()))) {
                        over.add(j.id());
                    }
                }
            }
            return new Prepared(in.candidates(), passes.events.revision(), passes.clock.instant(),
                    select.changesSince(passes.events), over);
        }).join();
        if (prepared.candidates.isEmpty()) {
            return 0;
        }
        EarliestStartsRequest.Builder request = EarliestStartsRequest.newBuilder().setEpoch(passes.epoch())
                .setMinRevision(prepared.revision).addAllChanges(prepared.changes).setNow(JobProtos.ts(prepared.now))
                .setWindowSeconds(settings.windowSeconds()).setResolutionSeconds(settings.resolutionSeconds())
                .setMaxJobTest(settings.maxJobTest())
                .setReservationMode(settings.easy() ? ReservationMode.RESERVATION_MODE_EASY
                        : ReservationMode.RESERVATION_MODE_CONSERVATIVE)
                .addAllOverReservationJobIds(prepared.overReservations);
        for (JobRecord j : prepared.candidates) {
            request.addJobs(SelectRequests.of(j));
            if (j.priority() < settings.minPrioReserve()) {
                request.addNoReserveJobIds(j.id());
            }
        }
        EarliestStartsRequest built = request.build();
        EarliestStartsResponse answer = select.earliestStarts(built);
        if (answer == null) {
            return 0;
        }
        int started = passes.call(() -> apply(answer, prepared.now)).join();
        passes.metrics.backfillPass(System.nanoTime() - t0, answer.getTested(), started,
                (int) answer.getReservationsList().stream()
                        .filter(r -> r.getOutcome() == BackfillOutcome.BACKFILL_OUTCOME_RESERVED).count());
        return started;
    }

    /**
     * Starts the START_NOW jobs that still fit, records the others' forecasts, and that the pass made at {@code at}
     * evaluated the jobs it tested (controller thread).
     */
    private int apply(EarliestStartsResponse answer, Instant at) {
        long checkedAt = passes.events.revision();
        List<Long> tested = new ArrayList<>();
        for (Reservation r : answer.getReservationsList()) {
            if (r.getOutcome() != BackfillOutcome.BACKFILL_OUTCOME_NOT_TESTED) {
                tested.add(r.getJobId());
            }
        }
        passes.schedEvals.backfillPass(tested, at);
        int started = 0;
        for (Reservation r : answer.getReservationsList()) {
            JobRecord job = passes.state.job(r.getJobId());
            if (job == null || job.state() != JobState.PENDING || job.completing()) {
                continue;
            }
            List<NodeShare> shares = r.getNodesList().stream().map(JobProtos::share).toList();
            switch (r.getOutcome()) {
                case BACKFILL_OUTCOME_START_NOW -> {
                    var problem = PlacementCheck.check(passes.state, job, r.getPartition(), shares);
                    if (problem.isPresent()) {
                        refused("backfill", job.id(), problem.get(), answer.getRevision(), checkedAt);
                        continue;
                    }
                    passes.start(job, new Start.Placement(r.getPartition(), shares, true, false));
                    passes.metrics.backfilled(r.getPartition());
                    started++;
                }
                case BACKFILL_OUTCOME_RESERVED, BACKFILL_OUTCOME_ESTIMATED -> forecast(job, new Forecast(
                        JobProtos.instant(r.getStartTime()), shares.stream().map(NodeShare::node).toList(),
                        r.getOutcome() == BackfillOutcome.BACKFILL_OUTCOME_RESERVED), reasonOf(job, r));
                case BACKFILL_OUTCOME_NO_START -> forecast(job, null, reasonOf(job, r));
                default -> { } // NOT_TESTED: left as it was
            }
        }
        if (preemptable != null) {
            started += startPreemptable(answer, checkedAt);
        }
        if (started > 0) {
            passes.trigger();
        }
        return started;
    }

    /**
     * BackfillPolicy=PREEMPT: starts the jobs select-svc placed over the reservations ({@code over_reservations}: its
     * PREEMPT partitions' jobs that the pass left blocked for lack of resources, placed on what the pass's starts leave
     * free), marked preemptable, when the placement is in a PREEMPT partition (controller thread).
     */
    private int startPreemptable(EarliestStartsResponse answer, long checkedAt) {
        preemptable.forgetEnded(passes.state::job);
        int started = 0;
        for (Placement p : answer.getOverReservationsList()) {
            JobRecord job = passes.state.job(p.getJobId());
            if (job == null || job.state() != JobState.PENDING || job.completing() || !p.getStartNow()
                    || !BackfillPreemption.allowedIn(passes.state.partition(p.getPartition()))) {
                continue;
            }
            List<NodeShare> shares = p.getNodesList().stream().map(JobProtos::share).toList();
            var problem = PlacementCheck.check(passes.state, job, p.getPartition(), shares);
            if (problem.isPresent()) {
                refused("preemptable backfill", job.id(), problem.get(), answer.getRevision(), checkedAt);
                continue;
            }
            passes.start(job, new Start.Placement(p.getPartition(), shares, true, true));
            preemptable.mark(passes.state.job(job.id()));
            passes.metrics.backfilled(p.getPartition());
            LOG.info("job {} backfilled preemptable (BackfillPolicy=PREEMPT) on {}", job.id(),
                    shares.stream().map(NodeShare::node).toList());
            started++;
        }
        return started;
    }

    /**
     * A start the controller refused: select-svc's replica was behind (DEBUG; a later pass places the job again), or the
     * two disagree on the placement rules (WARN, counted in {@code gantry_placement_disagreements_total{pass="backfill"}}).
     */
    private void refused(String what, long jobId, String problem, long answeredAt, long checkedAt) {
        if (PlacementRefusal.of(answeredAt, checkedAt) == PlacementRefusal.DISAGREEMENT) {
            LOG.warn("{} placement of job {} proposed at revision {} refused: {} (select-svc and the controller disagree)",
                    what, jobId, answeredAt, problem);
            passes.metrics.placementDisagreement("backfill");
        } else {
            LOG.debug("{} placement of job {} refused: {}", what, jobId, problem);
        }
    }

    /** The main pass's reason stays (Priority or Resources) unless select-svc names a more specific one. */
    private static PendingReason reasonOf(JobRecord job, Reservation r) {
        PendingReason given = Pending.ofAnswer(r.getReason());
        if (given == PendingReason.RESOURCES || given == PendingReason.PRIORITY) {
            return job.pendingReason() == PendingReason.NONE ? PendingReason.RESOURCES : job.pendingReason();
        }
        return given;
    }

    private void forecast(JobRecord job, Forecast f, PendingReason reason) {
        passes.applier.apply(Pending.forecast(job, f, reason));
    }
}
