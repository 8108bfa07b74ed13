package dev.gantry.select.grpc;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.BackfillOutcome;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.NotHolding;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlacePreemptingResponse;
import dev.gantry.api.v1.PreemptionMethod;
import dev.gantry.api.v1.PreemptionPlacement;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.api.v1.Reservation;
import dev.gantry.common.job.PendingReason;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.BackfillAnswer;
import dev.gantry.select.placement.BackfillJob;
import dev.gantry.select.placement.BackfillOptions;
import dev.gantry.select.placement.OverReservations;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.placement.ReservationMode;
import dev.gantry.select.placement.ResourceRequest;
import dev.gantry.select.placement.StartTrial;
import dev.gantry.select.preempt.LeastPreemptionPolicy;
import dev.gantry.select.preempt.PreemptingPlacement;
import dev.gantry.select.preempt.PreemptionPolicy;
import dev.gantry.select.preempt.SlurmTwoStagePolicy;
import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The answers of Select.EarliestStarts and Select.PlacePreempting (also a Plan's preemption part) on one replica view: maps the request, calls one
 * core method, maps back. Stateless; the caller has checked the view's epoch and revision.
 */
final class ScheduleAnswers {
    private ScheduleAnswers() {}

    /**
     * The backfill pass: for each job in order, start now, a held reservation, an estimate that holds nothing, no start
     * within the window, or not tested ({@link PlacementPlanner#backfill}); then, for {@code over_reservation_job_ids},
     * the starts that ignore reservations ({@link OverReservations}).
     */
    static EarliestStartsResponse earliestStarts(PlacementPlanner planner, ReplicaView view, EarliestStartsRequest request,
            Instant clockNow) {
        for (String[] field : new String[][] {{"window_seconds", Long.toString(request.getWindowSeconds())},
                {"resolution_seconds", Long.toString(request.getResolutionSeconds())},
                {"max_job_test", Long.toString(request.getMaxJobTest())}}) {
            if (Long.parseLong(field[1]) < 0) {
                throw Status.INVALID_ARGUMENT.withDescription(field[0] + " must not be negative, got " + field[1])
                        .asRuntimeException();
            }
        }
        Set<Long> noReserve = new HashSet<>(request.getNoReserveJobIdsList());
        List<BackfillJob> jobs = new ArrayList<>(request.getJobsCount());
        for (int i = 0; i < request.getJobsCount(); i++) {
            ResourceRequest job = ProtoMapping.toRequest(request.getJobs(i), "jobs[" + i + "]");
            jobs.add(new BackfillJob(job, !noReserve.contains(job.jobId())));
        }
        Instant now = request.hasNow() ? Instant.ofEpochSecond(request.getNow().getSeconds(), request.getNow().getNanos())
                : clockNow;
        ReservationMode mode = request.getReservationMode() == dev.gantry.api.v1.ReservationMode.RESERVATION_MODE_EASY
                ? ReservationMode.EASY : ReservationMode.CONSERVATIVE;
        List<BackfillAnswer> answers = planner.backfill(view, jobs, new BackfillOptions(now, mode,
                request.getWindowSeconds(), request.getResolutionSeconds(), request.getMaxJobTest()));
        EarliestStartsResponse.Builder reply = EarliestStartsResponse.newBuilder().setEpoch(view.epoch())
                .setRevision(view.revision());
        int tested = 0;
        for (BackfillAnswer answer : answers) {
            Reservation.Builder r = Reservation.newBuilder().setJobId(answer.jobId());
            switch (answer) {
                case BackfillAnswer.StartNow start -> {
                    r.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_START_NOW).setStartTime(ts(now))
                            .setPartition(start.start().partition());
                    for (NodeAllotment share : start.start().nodes()) {
                        r.addNodes(ProtoMapping.allocation(share, view));
                    }
                }
                case BackfillAnswer.Reserved reserved -> future(r, reserved.reservation())
                        .setOutcome(BackfillOutcome.BACKFILL_OUTCOME_RESERVED);
                case BackfillAnswer.Estimated estimated -> future(r, estimated.reservation())
                        .setOutcome(BackfillOutcome.BACKFILL_OUTCOME_ESTIMATED)
                        .setNotHolding(estimated.why() == BackfillAnswer.NotHolding.EASY ? NotHolding.NOT_HOLDING_EASY
                                : NotHolding.NOT_HOLDING_NO_RESERVE);
                case BackfillAnswer.NoStart none -> r.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_NO_START)
                        .setReason(none.reason().slurmName());
                case BackfillAnswer.NotTested untested -> r.setOutcome(BackfillOutcome.BACKFILL_OUTCOME_NOT_TESTED);
            }
            if (!(answer instanceof BackfillAnswer.NotTested)) {
                tested++;
            }
            reply.addReservations(r);
        }
        if (request.getOverReservationJobIdsCount() > 0) {
            OverReservations.place(planner, view, jobs, answers, new HashSet<>(request.getOverReservationJobIdsList()))
                    .forEach(start -> reply.addOverReservations(ProtoMapping.toProto(start, view)));
        }
        return reply.setTested(tested).build();
    }

    /** StartTime, partition and SchedNodeList of a future start; the job lacks resources now. */
    private static Reservation.Builder future(Reservation.Builder r, Placement.Reservation at) {
        r.setStartTime(ts(at.start())).setPartition(at.partition()).setReason(PendingReason.RESOURCES.slurmName());
        at.nodes().forEach(n -> r.addNodes(NodeAllocation.newBuilder().setNode(n)));
        return r;
    }

    /**
     * Preemption-aware placement for each query in order; each answer's victims and start count for the next. A
     * query's {@code suspendable} victims are first tried as suspended (CPUs freed, memory and GRES kept); when the job
     * cannot start that way, they are tried as freed whole (the controller then escalates them, SUSPEND → REQUEUE).
     */
    static PlacePreemptingResponse placePreempting(ReplicaView view, PlacePreemptingRequest request) {
        return preempting(new StartTrial(view), request, i -> true);
    }

    /**
     * The preemption part of a Plan ({@code PlanRequest.preemption}): answered as {@link #placePreempting} on what the
     * Plan's {@code placements} leave free, trying only the queries whose job they leave without a start — with
     * {@code first_blocked_only}, only when its job is the first so left — and at most {@code max_tried} of them.
     *
     * @param jobs the Plan's requests, in its order
     */
    static PlacePreemptingResponse afterPlan(ReplicaView view, PlacePreemptingRequest request, List<ResourceRequest> jobs,
            List<Placement> placements) {
        Map<Long, ResourceRequest> byId = new HashMap<>();
        jobs.forEach(j -> byId.put(j.jobId(), j));
        Set<Long> started = new HashSet<>();
        List<Placement.Start> starts = new ArrayList<>();
        for (Placement p : placements) {
            if (p instanceof Placement.Start s) {
                started.add(s.jobId());
                starts.add(s);
            }
        }
        Long firstBlocked = jobs.stream().map(ResourceRequest::jobId).filter(id -> !started.contains(id)).findFirst()
                .orElse(null);
        if (request.getMaxTried() < 0) {
            throw Status.INVALID_ARGUMENT.withDescription("preemption.max_tried must not be negative, got "
                    + request.getMaxTried()).asRuntimeException();
        }
        int max = request.getMaxTried() == 0 ? Integer.MAX_VALUE : request.getMaxTried();
        int[] tried = {0};
        StartTrial trial = new StartTrial(view).holding(starts, byId::get);
        return preempting(trial, request, i -> {
            PreemptionQuery q = request.getQueries(i);
            long id = q.getJob().getJobId();
            boolean tries = !started.contains(id) && (!q.getFirstBlockedOnly() || Long.valueOf(id).equals(firstBlocked))
                    && tried[0] < max;
            if (tries) {
                tried[0]++;
            }
            return tries;
        });
    }

    private static PlacePreemptingResponse preempting(StartTrial start, PlacePreemptingRequest request,
            IntPredicate tries) {
        if (request.hasReorderCount() && (request.getReorderCount() < 0 || request.getReorderCount() > 64)) {
            throw Status.INVALID_ARGUMENT.withDescription("reorder_count: must be between 0 and 64, got "
                    + request.getReorderCount()).asRuntimeException();
        }
        int reorder = request.hasReorderCount() ? request.getReorderCount() : 1;
        PreemptionPolicy policy = request.getMethod() == PreemptionMethod.PREEMPTION_METHOD_SLURM
                ? new SlurmTwoStagePolicy(reorder, request.getStrictOrder())
                : new LeastPreemptionPolicy(reorder, request.getStrictOrder());
        List<ResourceRequest> jobs = new ArrayList<>(request.getQueriesCount());
        for (int i = 0; i < request.getQueriesCount(); i++) {
            if (!request.getQueries(i).hasJob()) {
                throw Status.INVALID_ARGUMENT.withDescription("queries[" + i + "].job must be set").asRuntimeException();
            }
            jobs.add(ProtoMapping.toRequest(request.getQueries(i).getJob(), "queries[" + i + "].job"));
        }
        ReplicaView view = start.view();
        PlacePreemptingResponse.Builder reply = PlacePreemptingResponse.newBuilder().setEpoch(view.epoch())
                .setRevision(view.revision());
        StartTrial trial = start;
        for (int i = 0; i < jobs.size(); i++) {
            if (!tries.test(i)) {
                reply.addResults(PreemptionPlacement.newBuilder().setNotTried(true));
                continue;
            }
            ResourceRequest job = jobs.get(i);
            PreemptionQuery query = request.getQueries(i);
            StartTrial suspending = trial.suspending(query.getSuspendableList());
            StartTrial used = suspending;
            Optional<PreemptingPlacement> plan = policy.place(suspending, job, query.getPreemptableList());
            if (plan.isEmpty() && query.getSuspendableCount() > 0) {
                used = trial;
                plan = policy.place(trial, job, query.getPreemptableList());
            }
            PreemptionPlacement.Builder result = PreemptionPlacement.newBuilder();
            if (plan.isPresent()) {
                result.setPlacement(ProtoMapping.toProto(plan.get().start(), view)).addAllVictims(plan.get().victims())
                        .setPreemptedCpus((int) Math.min(Integer.MAX_VALUE, plan.get().preemptedCpus()));
                trial = used.after(plan.get().victims(), plan.get().start(), job)
                        .suspending(List.of());
            } else {
                result.setPlacement(ProtoMapping.toProto(new Placement.Pending(job.jobId(), PendingReason.RESOURCES), view));
            }
            reply.addResults(result);
        }
        return reply.build();
    }

    private static Timestamp ts(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
