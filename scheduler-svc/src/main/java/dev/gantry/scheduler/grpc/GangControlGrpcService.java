package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.ApplySliceRequest;
import dev.gantry.api.v1.ApplySliceResponse;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.scheduler.runtime.Controller;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.Executor;

/** gang-svc's decisions (gang.proto GangControl), applied by the controller; on the internal server, for gang-svc only. */
public final class GangControlGrpcService extends GangControlGrpc.GangControlImplBase {

    private final Controller controller;
    private final Executor responses;

    public GangControlGrpcService(SchedulerRuntime runtime) {
        this(runtime.controller(), runtime.responses());
    }

    /** @param responses where responses are completed: never the controller thread */
    public GangControlGrpcService(Controller controller, Executor responses) {
        this.controller = controller;
        this.responses = responses;
    }

    @Override
    public void applySlice(ApplySliceRequest request, StreamObserver<ApplySliceResponse> out) {
        if (!request.getEpoch().isEmpty() && !request.getEpoch().equals(controller.epoch())) {
            out.onError(Status.FAILED_PRECONDITION.withDescription("epoch: " + request.getEpoch()
                    + " is not the controller's (" + controller.epoch() + "); resynchronise").asRuntimeException());
            return;
        }
        Answers.answer(controller.gang.applySlice(request.getRevision(), request.getSuspendList(), request.getResumeList()),
                responses, out, r -> ApplySliceResponse.newBuilder().addAllSuspended(r.suspended())
                        .addAllResumed(r.resumed()).addAllSkipped(r.skipped()).addAllRefused(r.refused()).build());
    }
}
