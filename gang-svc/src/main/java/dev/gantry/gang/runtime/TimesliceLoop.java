package dev.gantry.gang.runtime;

import dev.gantry.api.v1.ApplySliceRequest;
import dev.gantry.api.v1.ApplySliceResponse;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.gang.slice.PartitionDecision;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.Peer;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a time slice every SchedulerTimeSlice and sends gang-svc's decisions to scheduler-svc's
 * GangControl.ApplySlice (one call per partition, with the replica's epoch and revision): after each slice, and as
 * soon as an event led to a decision. A call that fails (FAILED_PRECONDITION: the controller is at another epoch;
 * UNAVAILABLE; anything else) leaves its decisions outstanding; they are sent again at the next slice. Decisions
 * the controller refuses (made on a view older than a job's latest change) are outstanding again too: the event that
 * made them stale is on its way, and sends them anew if they still stand.
 *
 * <p>As Slurm's timeslicer thread, it sleeps a whole SchedulerTimeSlice after each slice (the snapshot's current
 * setting), one timer for every partition; before the first snapshot it looks again every second.
 *
 * <p>Thread-safety: ticks and sends run on one thread, so calls never overlap; {@link LiveGang} guards the state.
 */
@Context
public final class TimesliceLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TimesliceLoop.class);
    private static final long DEADLINE_SECONDS = 10;
    /** Answers may hold jobs out and so decide more; bounded so a confused controller cannot spin this thread. */
    private static final int MAX_ROUNDS = 4;

    private final LiveGang gang;
    private final GangControlGrpc.GangControlBlockingStub control;
    private final ManagedChannel ownedChannel;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread t = new Thread(runnable, "gang-timeslicer");
        t.setDaemon(true);
        return t;
    });

    /** Sends to scheduler-svc's GangControl on its internal port, over mutual TLS as gang-svc. */
    @Inject
    public TimesliceLoop(LiveGang gang, @Value("${gantry.scheduler-address}") String schedulerAddress, InternalChannels channels,
            dev.gantry.common.failover.Fencing.Guard fencing) {
        this(gang, dev.gantry.common.tls.SchedulerChannels.open(channels, schedulerAddress, fencing), true);
        scheduleNextTick();
        gang.onDecisions(this::sendSoon);
        LOG.info("decisions go to GangControl at {}", schedulerAddress);
    }

    /** The next slice one SchedulerTimeSlice from now (before the first snapshot: a look in a second). */
    private void scheduleNextTick() {
        long delay = gang.settings().map(s -> s.timeSlice().toMillis()).orElse(1000L);
        try {
            thread.schedule(() -> {
                if (gang.settings().isPresent()) {
                    tick();
                }
                scheduleNextTick();
            }, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("closed: no more slices");
        }
    }

    /** For tests: no timer, nothing sent unless {@link #tick} or {@link #send} is called. */
    TimesliceLoop(LiveGang gang, Channel channel) {
        this(gang, channel, false);
    }

    private TimesliceLoop(LiveGang gang, Channel channel, boolean owned) {
        this.gang = gang;
        this.control = GangControlGrpc.newBlockingStub(channel);
        this.ownedChannel = owned ? (ManagedChannel) channel : null;
    }

    /** Sends on the loop's thread, soon; does nothing once closed. */
    private void sendSoon() {
        try {
            thread.execute(() -> {
                try {
                    send();
                } catch (RuntimeException e) {
                    LOG.warn("sending decisions failed; trying again at the next slice", e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("closed: decisions not sent");
        }
    }

    /** One slice, then whatever is outstanding (including decisions a failed call left). */
    void tick() {
        try {
            gang.slice();
            send();
        } catch (RuntimeException e) {
            LOG.warn("time slice failed; trying again at the next one", e);
        }
    }

    /** Sends every partition's outstanding decisions; at the first failed call, the rest wait for the next slice. */
    void send() {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Optional<LiveGang.Pending> pending = gang.take();
            if (pending.isEmpty()) {
                return;
            }
            boolean more = false;
            List<PartitionDecision> decisions = pending.get().decisions();
            for (int i = 0; i < decisions.size(); i++) {
                PartitionDecision decision = decisions.get(i);
                ApplySliceRequest request = ApplySliceRequest.newBuilder().setEpoch(pending.get().epoch())
                        .setRevision(pending.get().revision()).setPartition(decision.partition())
                        .addAllSuspend(decision.suspend()).addAllResume(decision.resume()).build();
                ApplySliceResponse answer;
                try {
                    answer = control.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS).applySlice(request);
                } catch (StatusRuntimeException e) {
                    Status.Code code = e.getStatus().getCode();
                    if (code == Status.Code.FAILED_PRECONDITION || code == Status.Code.UNAVAILABLE) {
                        LOG.debug("ApplySlice for {} not applied ({}); again at the next slice", decision.partition(), e.getStatus());
                    } else {
                        LOG.warn("ApplySlice for {} failed; again at the next slice: {}", decision.partition(), e.getStatus());
                    }
                    decisions.subList(i, decisions.size()).forEach(gang::failed);
                    return;
                }
                if (answer.getRefusedCount() > 0) {
                    LOG.debug("ApplySlice for {}: jobs {} refused; deciding again on the newer view", decision.partition(),
                            answer.getRefusedList());
                }
                more |= gang.applied(decision, answer.getSuspendedList(), answer.getResumedList(), answer.getSkippedList(),
                        answer.getRefusedList());
            }
            if (!more) {
                return;
            }
        }
    }

    @PreDestroy
    @Override
    public void close() {
        thread.shutdownNow();
        if (ownedChannel != null) {
            ownedChannel.shutdownNow();
        }
    }
}
