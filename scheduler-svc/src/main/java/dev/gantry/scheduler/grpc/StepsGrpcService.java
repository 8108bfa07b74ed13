package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.CompleteStepRequest;
import dev.gantry.api.v1.CompleteStepResponse;
import dev.gantry.api.v1.CreateStepRequest;
import dev.gantry.api.v1.CreateStepResponse;
import dev.gantry.api.v1.ListStepsRequest;
import dev.gantry.api.v1.ListStepsResponse;
import dev.gantry.api.v1.StepsGrpc;
import dev.gantry.common.auth.Identity;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.scheduler.access.PrivateData;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.runtime.JobSteps;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.concurrent.Executor;

/** gantry.v1.Steps over {@link JobSteps}: one call each, answered off the controller thread. */
@Singleton
public final class StepsGrpcService extends StepsGrpc.StepsImplBase {

    private final JobSteps steps;
    private final Executor responses;
    private final ClusterConfig config;
    private final Visibility visibility;

    @Inject
    public StepsGrpcService(SchedulerRuntime runtime) {
        this(runtime.steps(), runtime.state().config(), runtime.responses());
    }

    /** The service over a controller's steps (tests serve it in-process this way). */
    public StepsGrpcService(JobSteps steps, ClusterConfig config, Executor responses) {
        this.steps = steps;
        this.config = config;
        this.responses = responses;
        this.visibility = new Visibility(PrivateData.of(config));
    }

    @Override
    public void createStep(CreateStepRequest request, StreamObserver<CreateStepResponse> out) {
        steps.create(request.toBuilder().setUser(Callers.current().user()).build()).whenCompleteAsync((created, error) -> {
            if (error != null) {
                out.onError(Status.fromThrowable(error).asRuntimeException());
            } else {
                out.onNext(created);
                out.onCompleted();
            }
        }, responses);
    }

    @Override
    public void completeStep(CompleteStepRequest request, StreamObserver<CompleteStepResponse> out) {
        steps.complete(request.getJobId(), request.getStepId(), request.getExitCode(), Callers.current().user()).whenCompleteAsync((known, error) -> {
            if (error != null) {
                out.onError(Status.fromThrowable(error).asRuntimeException());
            } else {
                out.onNext(CompleteStepResponse.getDefaultInstance());
                out.onCompleted();
            }
        }, responses);
    }

    /** squeue -s, scontrol show step: with PrivateData=jobs only the steps of the caller's own jobs unless privileged. */
    @Override
    public void listSteps(ListStepsRequest request, StreamObserver<ListStepsResponse> out) {
        Identity caller = Callers.current();
        Requester who = Requester.of(config, caller.user(), caller.uid());
        steps.list(request.getJobIdsList()).whenCompleteAsync((list, error) -> {
            if (error != null) {
                out.onError(Status.fromThrowable(error).asRuntimeException());
            } else {
                out.onNext(ListStepsResponse.newBuilder()
                        .addAllSteps(list.stream().filter(step -> visibility.seesJob(who, step.getUser())).toList()).build());
                out.onCompleted();
            }
        }, responses);
    }
}
