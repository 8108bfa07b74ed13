package dev.gantry.select.grpc;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlacePreemptingResponse;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.api.v1.WillRunRequest;
import dev.gantry.api.v1.WillRunResponse;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.placement.PlanOptions;
import dev.gantry.select.placement.ResourceRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * gantry.v1.Select: maps each call to one core call on a fresh copy of the replica — Plan and WillRun to
 * {@link PlacementPlanner#plan}, EarliestStarts to the backfill pass and PlacePreempting to a preemption policy
 * (both in {@link ScheduleAnswers}).
 *
 * <p>A revisioned request carries the controller's changes since the revision select-svc last answered at
 * ({@code changes}); those the replica lacks are applied first ({@link ReplicaSource#catchUp}), so the answer does not
 * wait for the event stream to bring them. Errors: INVALID_ARGUMENT naming the malformed field (checked first);
 * UNAVAILABLE "replica not ready" while there is no current replica; FAILED_PRECONDITION when {@code min_revision} is
 * still ahead of the replica after waiting up to {@link #REPLICA_PATIENCE} for it (only when the changes did not reach
 * back to the replica's revision). Responses name the epoch and revision they were
 * computed at.
 *
 * <p>Served on select-svc's internal server only, to scheduler-svc alone ({@code runtime.SelectInternalApi}), with its calls on
 * the transport's own threads (grpc-java's direct executor) instead of a hand-off to a pool: one thread hand-off less
 * each way on the path of every scheduling decision. Safe because no handler blocks there: a call whose replica is
 * behind its {@code min_revision} waits on a thread of its own, and the one client, scheduler-svc, sends its calls one
 * after another.
 */
public final class SelectGrpcService extends SelectGrpc.SelectImplBase {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SelectGrpcService.class);

    /** How long a call waits for the replica to reach its {@code min_revision} before FAILED_PRECONDITION. */
    static final Duration REPLICA_PATIENCE = Duration.ofSeconds(2);

    private final ReplicaSource replicas;
    private final PlacementPlanner planner;
    private final InstantSource clock;
    private final Timer planTimer;
    private final Counter placed;
    private final Counter blocked;
    private final Timer replicaWait;
    /** Where a call whose replica is behind waits for it, off the transport's thread. */
    private final Executor waiting = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("select-wait-", 0).daemon(true).factory());
    /** The main pass's queue between calls of one controller session (PlanRequest.queue_session). */
    private final PlanQueue queue = new PlanQueue();

    public SelectGrpcService(ReplicaSource replicas, PlacementPlanner planner, InstantSource clock, MeterRegistry registry) {
        this.replicas = replicas;
        this.planner = planner;
        this.clock = clock;
        this.planTimer = Timer.builder("gantry.select.plan")
                .description("Time to compute one Plan call's placements")
                .publishPercentileHistogram()
                .register(registry);
        this.placed = planJobs(registry, "placed");
        this.blocked = planJobs(registry, "blocked");
        this.replicaWait = Timer.builder("gantry.select.replica.wait")
                .description("Time a call waited for the replica to reach its min_revision (calls that found it there "
                        + "are not counted)")
                .publishPercentileHistogram()
                .register(registry);
    }

    @Override
    public void plan(PlanRequest request, StreamObserver<PlanResponse> response) {
        answerAt(request.getEpoch(), request.getMinRevision(), request.getChangesList(), response, patience -> {
            List<ResourceRequest> jobs;
            if (request.getQueueSession().isEmpty()) {
                jobs = new ArrayList<>(request.getJobsCount());
                for (int i = 0; i < request.getJobsCount(); i++) {
                    jobs.add(ProtoMapping.toRequest(request.getJobs(i), "jobs[" + i + "]"));
                }
            } else {
                jobs = queue.resolve(request);
            }
            ReplicaView view = currentView(request.getEpoch(), request.getMinRevision(), patience);
            List<Placement> placements = planTimer.record(() -> planner.plan(view, jobs, request.getStopAtFirstBlocked()));
            PlanResponse.Builder reply = PlanResponse.newBuilder().setEpoch(view.epoch()).setRevision(view.revision());
            int started = 0;
            for (Placement placement : placements) {
                if (placement instanceof Placement.Start) {
                    started++;
                } else if (request.getOmitPriority() && placement instanceof Placement.Pending p
                        && p.reason() == dev.gantry.common.job.PendingReason.PRIORITY) {
                    continue;
                }
                reply.addPlacements(ProtoMapping.toProto(placement, view));
            }
            placed.increment(started);
            blocked.increment(placements.size() - started);
            if (request.hasPreemption()) {
                reply.setPreemption(ScheduleAnswers.afterPlan(view, request.getPreemption(), jobs, placements));
            }
            return reply.build();
        });
    }

    @Override
    public void willRun(WillRunRequest request, StreamObserver<WillRunResponse> response) {
        answer(response, () -> {
            if (!request.hasJob()) {
                throw Status.INVALID_ARGUMENT.withDescription("job must be set").asRuntimeException();
            }
            ResourceRequest job = ProtoMapping.toRequest(request.getJob(), "job");
            ReplicaView view = currentView();
            Instant now = clock.instant();
            // with reservations on: a job that cannot start now gets its earliest start from running jobs' ends
            Placement placement = planner.plan(view, List.of(job), new PlanOptions(false, true, now)).getFirst();
            WillRunResponse.Builder reply = WillRunResponse.newBuilder()
                    .setEpoch(view.epoch()).setRevision(view.revision()).setPlacement(ProtoMapping.toProto(placement, view));
            Instant start = switch (placement) {
                case Placement.Start s -> now;
                case Placement.Pending p -> p.reservation().map(r -> {
                    reply.addAllEarliestNodes(r.nodes()).setEarliestPartition(r.partition());
                    return r.start();
                }).orElse(null);
            };
            if (start != null) {
                reply.setEarliestStart(Timestamp.newBuilder().setSeconds(start.getEpochSecond()).setNanos(start.getNano()));
            }
            return reply.build();
        });
    }

    @Override
    public void earliestStarts(EarliestStartsRequest request, StreamObserver<EarliestStartsResponse> response) {
        answerAt(request.getEpoch(), request.getMinRevision(), request.getChangesList(), response, patience -> {
            ReplicaView view = currentView(request.getEpoch(), request.getMinRevision(), patience);
            return ScheduleAnswers.earliestStarts(planner, view, request, clock.instant());
        });
    }

    @Override
    public void placePreempting(PlacePreemptingRequest request, StreamObserver<PlacePreemptingResponse> response) {
        answerAt(request.getEpoch(), request.getMinRevision(), request.getChangesList(), response, patience -> {
            ReplicaView view = currentView(request.getEpoch(), request.getMinRevision(), patience);
            return ScheduleAnswers.placePreempting(view, request);
        });
    }

    /**
     * {@link #answer}, after applying the request's {@code changes} the replica lacks: on the calling thread when the
     * replica then follows {@code epoch} at {@code minRevision} (the computation is given no patience: it never waits
     * on the transport's thread), else on a thread that may wait {@link #REPLICA_PATIENCE} for the event stream.
     */
    private <T> void answerAt(String epoch, long minRevision, List<ClusterEvent> changes, StreamObserver<T> response,
            Function<Duration, T> compute) {
        orError(response, () -> {
            if (!changes.isEmpty() && !replicas.caughtUp(epoch, minRevision)) {
                replicas.catchUp(epoch, changes);
            }
            return replicas.caughtUp(epoch, minRevision);
        }).ifPresent(caughtUp -> {
            if (caughtUp) {
                answer(response, () -> compute.apply(Duration.ZERO));
            } else {
                waiting.execute(() -> answer(response, () -> compute.apply(REPLICA_PATIENCE)));
            }
        });
    }

    /** Computes a reply and sends it, or the error {@link #orError} makes of its failure. */
    private static <T> void answer(StreamObserver<T> response, Supplier<T> compute) {
        orError(response, compute).ifPresent(reply -> {
            response.onNext(reply);
            response.onCompleted();
        });
    }

    /**
     * The value computed, or empty once its failure is sent as the answer: a gRPC status as it is, any other exception
     * as INTERNAL naming it.
     */
    private static <T> Optional<T> orError(StreamObserver<?> response, Supplier<T> compute) {
        try {
            return Optional.of(compute.get());
        } catch (StatusRuntimeException e) {
            response.onError(e);
        } catch (RuntimeException e) {
            response.onError(internal(e));
        }
        return Optional.empty();
    }

    /**
     * The current view, if it follows {@code epoch} (empty: any) and is at least at {@code minRevision}, waiting up to
     * {@code patience} for it.
     */
    private ReplicaView currentView(String epoch, long minRevision, Duration patience) {
        ReplicaView view = currentView();
        if (!epoch.isEmpty() && !epoch.equals(view.epoch()) || minRevision > view.revision()) {
            long start = System.nanoTime();
            try {
                view = replicas.awaitView(epoch, minRevision, patience).orElseThrow(
                        () -> Status.UNAVAILABLE.withDescription("replica not ready").asRuntimeException());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw Status.UNAVAILABLE.withDescription("interrupted while waiting for the replica").asRuntimeException();
            } finally {
                replicaWait.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        }
        if (!epoch.isEmpty() && !epoch.equals(view.epoch())) {
            throw Status.FAILED_PRECONDITION.withDescription("replica follows epoch " + view.epoch()
                    + ", the request is for epoch " + epoch).asRuntimeException();
        }
        if (minRevision > view.revision()) {
            throw Status.FAILED_PRECONDITION.withDescription("replica is at revision " + view.revision()
                    + " of epoch " + view.epoch() + ", behind min_revision " + minRevision).asRuntimeException();
        }
        return view;
    }

    /** A bug in the cores: INTERNAL naming it, so the caller's log says what failed (rather than UNKNOWN). */
    private static StatusRuntimeException internal(RuntimeException e) {
        LOG.error("select call failed", e);
        return Status.INTERNAL.withDescription(e.toString()).withCause(e).asRuntimeException();
    }

    private ReplicaView currentView() {
        return replicas.currentView()
                .orElseThrow(() -> Status.UNAVAILABLE.withDescription("replica not ready").asRuntimeException());
    }

    private static Counter planJobs(MeterRegistry registry, String result) {
        return Counter.builder("gantry.select.plan.jobs")
                .description("Jobs answered by Plan calls, by whether they were placed")
                .tag("result", result)
                .register(registry);
    }
}
