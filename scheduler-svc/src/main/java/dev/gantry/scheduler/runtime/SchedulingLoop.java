package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Placement;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.common.config.BackfillSettings;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.cycle.PlacementCheck;
import dev.gantry.scheduler.cycle.PlacementRefusal;
import dev.gantry.scheduler.lifecycle.Pending;
import dev.gantry.scheduler.lifecycle.Start;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.BackfillPreemption;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the scheduling passes on their own thread. The main pass: when something happens (coalesced), and every
 * {@code intervalMillis} in any case; it takes the queue on the controller thread, asks select-svc for placements and
 * preemption victims in one Plan call, then re-checks and applies them on the controller thread. The backfill pass
 * ({@link BackfillScheduler}, sched/backfill): every bf_interval, after a main pass.
 */
public final class SchedulingLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulingLoop.class);
    /** After a main pass, wait this many times its duration before the next (docs/benchmarks.md, "Submission throughput"). */
    private static final long PAUSE_PER_PASS = 4;

    private final PassContext passes;
    private final long intervalMillis;
    private final Semaphore wake = new Semaphore(0);
    private final Thread thread;
    private volatile boolean running = true;
    private final SelectClient select;
    private final BackfillScheduler backfill;
    private final PreemptionPass preemption;
    private final SentQueue queue = new SentQueue();
    private final long backfillEveryNanos;
    private long lastBackfill = System.nanoTime();
    /** How long the last main pass held the controller thread (its prepare and apply; not its wait for select-svc). */
    private long passControllerNanos;

    public SchedulingLoop(PassContext passes, ManagedChannel selectChannel, long intervalMillis) {
        this(passes, selectChannel, intervalMillis, null);
    }

    /**
     * @param backfill the backfill pass's settings (sched/backfill), or null for sched/builtin. Preemption runs when
     *     the controller's PreemptType is not preempt/none, or backfill runs and a partition has
     *     BackfillPolicy=PREEMPT.
     */
    public SchedulingLoop(PassContext passes, ManagedChannel selectChannel, long intervalMillis,
            BackfillSettings backfill) {
        this.passes = passes;
        this.intervalMillis = intervalMillis;
        this.select = new SelectClient(selectChannel);
        // BackfillPolicy=PREEMPT needs backfill to start its jobs and the preemption pass to end them
        // the marks are stored with the jobs: index those the controller restored
        BackfillPreemption preemptable = backfill != null && passes.backfillPreempts()
                ? passes.call(() -> new BackfillPreemption(passes.state.jobs())).join() : null;
        this.backfill = backfill == null ? null : new BackfillScheduler(passes, select, backfill, preemptable);
        this.preemption = passes.preemptSettings().enabled() || preemptable != null
                ? new PreemptionPass(passes, preemptable) : null;
        this.backfillEveryNanos = backfill == null ? Long.MAX_VALUE : backfill.intervalSeconds() * 1_000_000_000L;
        this.thread = Thread.ofPlatform().name("scheduler-main-pass").daemon(true).start(this::loop);
    }

    /** Asks for a pass soon; many triggers before it runs make one pass. */
    public void trigger() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    private void loop() {
        while (running) {
            try {
                long untilBackfill = backfill == null ? intervalMillis
                        : Math.max(1, (lastBackfill + backfillEveryNanos - System.nanoTime()) / 1_000_000);
                wake.tryAcquire(Math.min(intervalMillis, untilBackfill), TimeUnit.MILLISECONDS);
                wake.drainPermits();
                if (!passes.databaseUp.getAsBoolean()) {
                    continue; // no start while the database is away; its return triggers a pass
                }
                if (running) {
                    pass();
                    // Triggers arriving meanwhile coalesce into the next pass: under a stream of submissions the main
                    // pass, O(pending jobs) on the controller thread, takes at most 1/(1 + PAUSE_PER_PASS) of that
                    // thread's time. Only the time the pass held the controller thread counts: its wait for select-svc
                    // (its Plan, its replica catching up) leaves the thread to submissions and exits meanwhile, and
                    // counting it (as before) paused a busy cluster for most of every second.
                    long pauseMs = Math.min(intervalMillis, passControllerNanos * PAUSE_PER_PASS / 1_000_000);
                    if (pauseMs > 0) {
                        Thread.sleep(pauseMs);
                    }
                }
                if (running && backfill != null && System.nanoTime() - lastBackfill >= backfillEveryNanos) {
                    lastBackfill = System.nanoTime();
                    backfill.run();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.error("scheduling pass failed", e);
            }
        }
    }

    /** What a main pass asks select-svc: the request (its queue still to fill) and the preemption question in it. */
    private record Prepared(MainPass.Input input, PlanRequest.Builder request, PreemptionPass.Asked preempting) {}

    /**
     * One main pass, with one select-svc call: takes the queue on the controller thread, asks select-svc for the
     * placements and, when preemption is on, the victims of the jobs they leave waiting, in one Plan call (with the
     * changes its replica lacks), then re-checks and starts, then preempts, on the controller thread.
     */
    void pass() throws InterruptedException {
        long t0 = System.nanoTime();
        long[] held = {0};
        Prepared prepared = passes.call(() -> {
            long begin = System.nanoTime();
            MainPass.Input in = passes.queue();
            setReasons(in.pendingReasons());
            passes.schedEvals.mainPass(in.candidates(), passes.clock.instant(), id -> {
                var j = passes.state.job(id);
                return j != null && j.state() == dev.gantry.scheduler.model.JobState.PENDING;
            });
            Prepared p = null;
            if (!in.candidates().isEmpty()) {
                PlanRequest.Builder request = PlanRequest.newBuilder().setEpoch(passes.epoch())
                        .setMinRevision(passes.events.revision()).setStopAtFirstBlocked(true).setOmitPriority(true)
                        .addAllChanges(select.changesSince(passes.events));
                PreemptionPass.Asked asked = preemption == null ? null : preemption.ask(in.candidates());
                if (asked != null) {
                    request.setPreemption(asked.request());
                }
                p = new Prepared(in, request, asked);
            }
            held[0] += System.nanoTime() - begin;
            return p;
        }).join();
        passControllerNanos = held[0];
        if (prepared == null) {
            return;
        }
        List<JobRecord> candidates = prepared.input.candidates();
        PlanResponse plan = plan(prepared.request, candidates);
        if (plan == null) {
            return;
        }
        passes.run(() -> {
            long begin = System.nanoTime();
            apply(plan, candidates);
            if (prepared.preempting != null) {
                preemption.answer(prepared.preempting, plan.getPreemption());
            }
            held[0] += System.nanoTime() - begin;
        }).join();
        passControllerNanos = held[0];
        passes.metrics.mainPass(System.nanoTime() - t0);
    }

    /**
     * Calls Plan with the queue as ids and only the requests select-svc lacks ({@link SentQueue}); when it no longer
     * holds the session (NOT_FOUND: it restarted), again with every request.
     */
    private PlanResponse plan(PlanRequest.Builder base, List<JobRecord> candidates) throws InterruptedException {
        PlanRequest request = queue.fill(base.clone(), candidates).build();
        PlanResponse r = select.plan("plan", stub -> {
            try {
                return stub.plan(request);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
                    throw e;
                }
                LOG.debug("select-svc lost the queue session ({}); sending every request", e.getStatus().getDescription());
                queue.forget();
                return stub.plan(queue.fill(base.clone(), candidates).build());
            }
        });
        if (r == null) {
            trigger();
        }
        return r;
    }

    /**
     * Starts what can start (after re-checking), and records why the rest waits (controller thread): a candidate
     * without a placement waits for Priority (omit_priority).
     */
    private void apply(PlanResponse plan, List<JobRecord> candidates) {
        Map<Long, PendingReason> reasons = new HashMap<>();
        java.util.Set<Long> answered = new java.util.HashSet<>();
        boolean retry = false;
        long checkedAt = passes.events.revision();
        for (Placement p : plan.getPlacementsList()) {
            answered.add(p.getJobId());
            JobRecord job = passes.state.job(p.getJobId());
            if (job == null) {
                continue;
            }
            if (!p.getStartNow()) {
                reasons.put(job.id(), Pending.ofAnswer(p.getReason()));
                continue;
            }
            List<NodeShare> shares = p.getNodesList().stream().map(JobProtos::share).toList();
            var problem = PlacementCheck.check(passes.state, job, p.getPartition(), shares);
            if (problem.isPresent()) {
                reasons.put(job.id(), PendingReason.RESOURCES);
                if (PlacementRefusal.of(plan.getRevision(), checkedAt) == PlacementRefusal.DISAGREEMENT) {
                    LOG.warn("placement of job {} proposed at revision {} refused: {} (select-svc and the controller "
                            + "disagree; the job waits for the next pass)", job.id(), plan.getRevision(), problem.get());
                    passes.metrics.placementDisagreement("main");
                } else {
                    LOG.debug("placement of job {} refused: {}", job.id(), problem.get());
                    retry = true;
                }
                continue;
            }
            passes.start(job, Start.Placement.of(p.getPartition(), shares));
        }
        setReasons(reasons);
        for (JobRecord seen : candidates) {
            if (!answered.contains(seen.id())) {
                setReason(seen.id(), PendingReason.PRIORITY);
            }
        }
        if (retry) {
            trigger();
        }
    }

    private void setReasons(Map<Long, PendingReason> reasons) {
        reasons.forEach(this::setReason);
    }

    private void setReason(long id, PendingReason reason) {
        passes.applier.apply(Pending.reason(passes.state.job(id), reason));
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
