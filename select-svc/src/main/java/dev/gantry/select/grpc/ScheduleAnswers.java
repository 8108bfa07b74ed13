package dev.gantry.select.grpc;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.EarliestStartsRequest;
import dev.gantry.api.v1.EarliestStartsResponse;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlacePreemptingResponse;
import dev.gantry.api.v1.PreemptionMethod;
import dev.gantry.api.v1.PreemptionPlacement;
import dev.gantry.api.v1.PreemptionQuery;
import dev.gantry.api.v1.Reservation;
import dev.gantry.select.model.NodeShare;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.placement.PendingReason;
import dev.gantry.select.placement.Placement;
import dev.gantry.select.placement.PlacementPlanner;
import dev.gantry.select.placement.PlanOptions;
import dev.gantry.select.placement.ResourceRequest;
import dev.gantry.select.placement.StartTrial;
import dev.gantry.select.preempt.LeastPreemptionPolicy;
import dev.gantry.select.preempt.PreemptionPlan;
import dev.gantry.select.preempt.PreemptionPolicy;
import dev.gantry.select.preempt.SlurmTwoStagePolicy;
import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The answers of Select.EarliestStarts and Select.PlacePreempting on one replica view: maps the request, calls one
 * core method, maps back. Stateless; the caller has checked the view's epoch and revision.
 */
final class ScheduleAnswers {
    private ScheduleAnswers() {}

    /** Backfill: each job's earliest start and nodes, every reservation holding its resources for later jobs. */
    static EarliestStartsResponse earliestStarts(PlacementPlanner planner, ReplicaView view, EarliestStartsRequest request,
            Instant clockNow) {
        if (request.getWindowSeconds() < 0) {
            throw Status.INVALID_ARGUMENT.withDescription("window_seconds must not be negative, got "
                    + request.getWindowSeconds()).asRuntimeException();
        }
        List<ResourceRequest> jobs = new ArrayList<>(request.getJobsCount());
        for (int i = 0; i < request.getJobsCount(); i++) {
            jobs.add(ProtoMapping.toRequest(request.getJobs(i), "jobs[" + i + "]"));
        }
        Instant now = request.hasNow() ? Instant.ofEpochSecond(request.getNow().getSeconds(), request.getNow().getNanos())
                : clockNow;
        List<Placement> placements = planner.plan(view, jobs, new PlanOptions(false, true, now, request.getWindowSeconds()));
        EarliestStartsResponse.Builder reply = EarliestStartsResponse.newBuilder().setEpoch(view.epoch())
                .setRevision(view.revision());
        for (Placement p : placements) {
            Reservation.Builder r = Reservation.newBuilder().setJobId(p.jobId());
            switch (p) {
                case Placement.Start start -> {
                    r.setStartTime(ts(now)).setPartition(start.partition());
                    for (NodeShare share : start.nodes()) {
                        r.addNodes(ProtoMapping.allocation(share, view));
                    }
                }
                case Placement.Pending pending when pending.reservation().isPresent() -> {
                    Placement.Reservation at = pending.reservation().get();
                    r.setStartTime(ts(at.start())).setPartition(at.partition());
                    at.nodes().forEach(n -> r.addNodes(NodeAllocation.newBuilder().setNode(n)));
                }
                case Placement.Pending pending -> r.setReason(pending.reason().slurmName());
            }
            reply.addReservations(r);
        }
        return reply.build();
    }

    /** Preemption-aware placement for each query in order; each answer's victims and start count for the next. */
    static PlacePreemptingResponse placePreempting(ReplicaView view, PlacePreemptingRequest request) {
        PreemptionPolicy policy = request.getMethod() == PreemptionMethod.PREEMPTION_METHOD_SLURM
                ? new SlurmTwoStagePolicy() : new LeastPreemptionPolicy();
        List<ResourceRequest> jobs = new ArrayList<>(request.getQueriesCount());
        for (int i = 0; i < request.getQueriesCount(); i++) {
            if (!request.getQueries(i).hasJob()) {
                throw Status.INVALID_ARGUMENT.withDescription("queries[" + i + "].job must be set").asRuntimeException();
            }
            jobs.add(ProtoMapping.toRequest(request.getQueries(i).getJob(), "queries[" + i + "].job"));
        }
        PlacePreemptingResponse.Builder reply = PlacePreemptingResponse.newBuilder().setEpoch(view.epoch())
                .setRevision(view.revision());
        StartTrial trial = new StartTrial(view);
        for (int i = 0; i < jobs.size(); i++) {
            ResourceRequest job = jobs.get(i);
            PreemptionQuery query = request.getQueries(i);
            Optional<PreemptionPlan> plan = policy.place(trial, job, query.getPreemptableList());
            PreemptionPlacement.Builder result = PreemptionPlacement.newBuilder();
            if (plan.isPresent()) {
                result.setPlacement(ProtoMapping.toProto(plan.get().start(), view)).addAllVictims(plan.get().victims())
                        .setPreemptedCpus((int) Math.min(Integer.MAX_VALUE, plan.get().preemptedCpus()));
                trial = trial.after(plan.get().victims(), plan.get().start(), job.options().exclusive());
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
