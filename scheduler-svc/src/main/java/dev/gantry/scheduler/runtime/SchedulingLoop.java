package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.Placement;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.SelectRequests;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.cycle.PlacementCheck;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.PendingReason;
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
 * Runs the main scheduling pass on its own thread: when something happens (coalesced), and every
 * {@code intervalMillis} in any case. One pass: take the queue on the controller thread, ask select-svc for
 * placements in one batched Plan call, then re-check and apply them on the controller thread.
 */
public final class SchedulingLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulingLoop.class);

    private final Controller controller;
    private final ManagedChannel selectChannel;
    private final long intervalMillis;
    private final Semaphore wake = new Semaphore(0);
    private final Thread thread;
    private volatile boolean running = true;
    private boolean selectDown;

    public SchedulingLoop(Controller controller, ManagedChannel selectChannel, long intervalMillis) {
        this.controller = controller;
        this.selectChannel = selectChannel;
        this.intervalMillis = intervalMillis;
        controller.setScheduleTrigger(this::trigger);
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
                wake.tryAcquire(intervalMillis, TimeUnit.MILLISECONDS);
                wake.drainPermits();
                if (running) {
                    pass();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.error("scheduling pass failed", e);
            }
        }
    }

    private record Prepared(MainPass.Input input, long revision) {}

    void pass() throws InterruptedException {
        long t0 = System.nanoTime();
        Prepared prepared = controller.call(() -> {
            MainPass.Input in = MainPass.prepare(controller.state);
            setReasons(in.reasons());
            return new Prepared(in, controller.events.revision());
        }).join();
        List<JobRecord> candidates = prepared.input.candidates();
        if (candidates.isEmpty()) {
            return;
        }
        PlanRequest.Builder request = PlanRequest.newBuilder().setEpoch(controller.epoch())
                .setMinRevision(prepared.revision).setStopAtFirstBlocked(true);
        for (JobRecord j : candidates) {
            request.addJobs(SelectRequests.of(j));
        }
        PlanResponse plan = plan(request.build());
        if (plan == null) {
            return;
        }
        controller.run(() -> apply(plan)).join();
        controller.metrics.mainPass(System.nanoTime() - t0);
    }

    /** Calls Plan, waiting briefly while select-svc's replica catches up with the revision asked for. */
    private PlanResponse plan(PlanRequest request) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                PlanResponse r = SelectGrpc.newBlockingStub(selectChannel).withDeadlineAfter(30, TimeUnit.SECONDS).plan(request);
                if (selectDown) {
                    LOG.info("select-svc answers again");
                    selectDown = false;
                }
                return r;
            } catch (StatusRuntimeException e) {
                Status.Code code = e.getStatus().getCode();
                if (code == Status.Code.FAILED_PRECONDITION) {
                    Thread.sleep(10);
                    continue;
                }
                if (!selectDown) {
                    LOG.warn("select-svc plan failed: {}; jobs wait", e.getStatus());
                    selectDown = true;
                }
                Thread.sleep(200);
                trigger();
                return null;
            }
        }
        LOG.warn("select-svc replica stayed behind revision {}; retrying next pass", request.getMinRevision());
        trigger();
        return null;
    }

    /** Starts what can start (after re-checking), and records why the rest waits (controller thread). */
    private void apply(PlanResponse plan) {
        Map<Long, String> reasons = new HashMap<>();
        boolean retry = false;
        for (Placement p : plan.getPlacementsList()) {
            JobRecord job = controller.state.job(p.getJobId());
            if (job == null) {
                continue;
            }
            if (!p.getStartNow()) {
                reasons.put(job.id(), p.getReason().isEmpty() ? PendingReason.RESOURCES : p.getReason());
                continue;
            }
            List<NodeShare> shares = p.getNodesList().stream().map(JobProtos::share).toList();
            var problem = PlacementCheck.check(controller.state, job, p.getPartition(), shares);
            if (problem.isPresent()) {
                LOG.debug("placement of job {} refused: {}", job.id(), problem.get());
                reasons.put(job.id(), PendingReason.RESOURCES);
                retry = true;
                continue;
            }
            controller.start(job, p.getPartition(), shares);
        }
        setReasons(reasons);
        if (retry) {
            trigger();
        }
    }

    private void setReasons(Map<Long, String> reasons) {
        reasons.forEach((id, reason) -> {
            JobRecord j = controller.state.job(id);
            if (j != null && !reason.equals(j.reason())) {
                controller.state.put(j.toBuilder().reason(reason).build());
            }
        });
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
