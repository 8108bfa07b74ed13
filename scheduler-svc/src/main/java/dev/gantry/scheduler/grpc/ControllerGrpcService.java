package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelJobResponse;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.GetJobResponse;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListNodesResponse;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.ListPartitionsResponse;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.SubmitJobResponse;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.runtime.Controller;
import dev.gantry.scheduler.runtime.JobQuery;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import dev.gantry.scheduler.store.JobStore;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CompletionException;

/** The client API (controller.proto) over the controller: maps, calls one method, maps back. */
@Singleton
public final class ControllerGrpcService extends ControllerGrpc.ControllerImplBase {

    private final Controller controller;
    private final JobStore store;
    private final SchedulerRuntime runtime;
    /** Completing through this moves the response off the controller thread (see SchedulerRuntime#responses). */
    private static final java.util.function.BiConsumer<Object, Throwable> HOP = (v, e) -> {};

    public ControllerGrpcService(SchedulerRuntime runtime) {
        this.runtime = runtime;
        this.controller = runtime.controller();
        this.store = runtime.store();
    }

    @Override
    public void submitJob(SubmitJobRequest request, StreamObserver<SubmitJobResponse> out) {
        if (!request.hasSpec()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("spec: is required").asRuntimeException());
            return;
        }
        controller.submit(request.getSpec()).whenCompleteAsync(HOP, runtime.responses()).whenComplete((id, error) -> {
            if (error != null) {
                out.onError(status(error));
            } else {
                out.onNext(SubmitJobResponse.newBuilder().setJobId(id).build());
                out.onCompleted();
            }
        });
    }

    @Override
    public void cancelJob(CancelJobRequest request, StreamObserver<CancelJobResponse> out) {
        if (request.getJobIdsCount() == 0) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("job_ids: at least one job id is required").asRuntimeException());
            return;
        }
        controller.cancel(request.getJobIdsList()).whenCompleteAsync(HOP, runtime.responses()).whenComplete((outcomes, error) -> {
            if (error != null) {
                out.onError(status(error));
                return;
            }
            CancelJobResponse.Builder b = CancelJobResponse.newBuilder();
            for (var o : outcomes) {
                b.addResults(CancelResult.newBuilder().setJobId(o.jobId()).setOk(o.error() == null)
                        .setError(o.error() == null ? "" : o.error()));
            }
            out.onNext(b.build());
            out.onCompleted();
        });
    }

    @Override
    public void getJob(GetJobRequest request, StreamObserver<GetJobResponse> out) {
        controller.findJob(request.getJobId()).whenCompleteAsync(HOP, runtime.responses()).whenComplete((job, error) -> {
            if (error != null) {
                out.onError(status(error));
                return;
            }
            var found = job;
            if (found == null) {
                try {
                    // Purged from memory after MinJobAge: the database still has it.
                    found = store.find(request.getJobId()).map(JobProtos::toProto).orElse(null);
                } catch (Exception e) {
                    out.onError(Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException());
                    return;
                }
            }
            if (found == null) {
                out.onError(Status.NOT_FOUND.withDescription("job_id: Invalid job id specified: " + request.getJobId())
                        .asRuntimeException());
                return;
            }
            out.onNext(GetJobResponse.newBuilder().setJob(found).build());
            out.onCompleted();
        });
    }

    @Override
    public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> out) {
        controller.listJobs(JobQuery.of(request)).whenCompleteAsync(HOP, runtime.responses()).whenComplete((jobs, error) -> {
            if (error != null) {
                out.onError(status(error));
            } else {
                out.onNext(ListJobsResponse.newBuilder().addAllJobs(jobs).build());
                out.onCompleted();
            }
        });
    }

    @Override
    public void watchJobs(WatchJobsRequest request, StreamObserver<WatchJobsResponse> out) {
        runtime.jobWatch().watch(JobQuery.of(request.getFilter()), out);
    }

    @Override
    public void listNodes(ListNodesRequest request, StreamObserver<ListNodesResponse> out) {
        var names = List.copyOf(request.getNamesList());
        controller.call(() -> {
            var b = ListNodesResponse.newBuilder();
            for (var n : runtime.state().nodes()) {
                if (names.isEmpty() || names.contains(n.name())) {
                    b.addNodes(ClusterProtos.node(runtime.state(), n));
                }
            }
            return b.build();
        }).whenCompleteAsync(HOP, runtime.responses()).whenComplete((r, error) -> reply(out, r, error));
    }

    @Override
    public void listPartitions(ListPartitionsRequest request, StreamObserver<ListPartitionsResponse> out) {
        var names = List.copyOf(request.getNamesList());
        controller.call(() -> {
            var b = ListPartitionsResponse.newBuilder();
            for (var p : runtime.state().config().partitions()) {
                if (names.isEmpty() || names.contains(p.name())) {
                    b.addPartitions(ClusterProtos.partition(runtime.state(), p));
                }
            }
            return b.build();
        }).whenCompleteAsync(HOP, runtime.responses()).whenComplete((r, error) -> reply(out, r, error));
    }

    private static <T> void reply(StreamObserver<T> out, T value, Throwable error) {
        if (error != null) {
            out.onError(status(error));
        } else {
            out.onNext(value);
            out.onCompleted();
        }
    }

    static RuntimeException status(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof Controller.RejectedSubmission r) {
            return Status.INVALID_ARGUMENT.withDescription(r.getMessage()).asRuntimeException();
        }
        return Status.INTERNAL.withDescription(String.valueOf(e.getMessage())).withCause(e).asRuntimeException();
    }
}
