package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.CompleteStepRequest;
import dev.gantry.api.v1.CompleteStepResponse;
import dev.gantry.api.v1.CreateStepRequest;
import dev.gantry.api.v1.CreateStepResponse;
import dev.gantry.api.v1.ListStepsRequest;
import dev.gantry.api.v1.ListStepsResponse;
import dev.gantry.api.v1.StepsGrpc;
import dev.gantry.common.authn.Callers;
import dev.gantry.scheduler.runtime.JobSteps;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Singleton;

/** gantry.v1.Steps over {@link JobSteps}: one call each, answered off the controller thread. */
@Singleton
public final class StepsGrpcService extends StepsGrpc.StepsImplBase {

    private final JobSteps steps;
    private final SchedulerRuntime runtime;

    public StepsGrpcService(SchedulerRuntime runtime) {
        this.runtime = runtime;
        this.steps = runtime.steps();
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
        }, runtime.responses());
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
        }, runtime.responses());
    }

    @Override
    public void listSteps(ListStepsRequest request, StreamObserver<ListStepsResponse> out) {
        steps.list(request.getJobIdsList()).whenCompleteAsync((list, error) -> {
            if (error != null) {
                out.onError(Status.fromThrowable(error).asRuntimeException());
            } else {
                out.onNext(ListStepsResponse.newBuilder().addAllSteps(list).build());
                out.onCompleted();
            }
        }, runtime.responses());
    }
}
