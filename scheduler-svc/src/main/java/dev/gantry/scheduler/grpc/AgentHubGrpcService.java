package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.HeartbeatResponse;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.RegisterNodeResponse;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.ReportJobExitResponse;
import dev.gantry.scheduler.runtime.NodeTracker;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Singleton;

/** The agents' side of the agent API (agent.proto: AgentHub). */
@Singleton
public final class AgentHubGrpcService extends AgentHubGrpc.AgentHubImplBase {

    private final SchedulerRuntime runtime;
    /** Completing through this moves the response off the controller thread (see SchedulerRuntime#responses). */
    private static final java.util.function.BiConsumer<Object, Throwable> HOP = (v, e) -> {};

    public AgentHubGrpcService(SchedulerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void registerNode(RegisterNodeRequest request, StreamObserver<RegisterNodeResponse> out) {
        if (request.getNode().isBlank() || request.getAgentAddress().isBlank()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("node and agent_address: both are required").asRuntimeException());
            return;
        }
        runtime.nodes().register(request).whenCompleteAsync(HOP, runtime.responses()).whenComplete((reg, error) -> {
            if (error != null) {
                out.onError(ControllerGrpcService.status(error));
                return;
            }
            switch (reg) {
                case NodeTracker.UnknownNode u -> out.onError(Status.NOT_FOUND.withDescription(u.message()).asRuntimeException());
                case NodeTracker.Accepted a -> {
                    out.onNext(RegisterNodeResponse.newBuilder().setControllerEpoch(a.epoch())
                            .setHeartbeatIntervalSeconds(a.heartbeatIntervalSeconds()).build());
                    out.onCompleted();
                }
            }
        });
    }

    @Override
    public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> out) {
        runtime.nodes().heartbeat(request.getNode()).whenCompleteAsync(HOP, runtime.responses()).whenComplete((epoch, error) -> {
            if (error != null) {
                out.onError(ControllerGrpcService.status(error));
            } else {
                out.onNext(HeartbeatResponse.newBuilder().setControllerEpoch(epoch).build());
                out.onCompleted();
            }
        });
    }

    @Override
    public void reportJobExit(ReportJobExitRequest request, StreamObserver<ReportJobExitResponse> out) {
        runtime.controller().reportExit(request).whenCompleteAsync(HOP, runtime.responses()).whenComplete((v, error) -> {
            if (error != null) {
                out.onError(ControllerGrpcService.status(error));
            } else {
                out.onNext(ReportJobExitResponse.getDefaultInstance());
                out.onCompleted();
            }
        });
    }
}
