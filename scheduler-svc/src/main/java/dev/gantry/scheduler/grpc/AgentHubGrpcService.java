package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.HeartbeatResponse;
import dev.gantry.api.v1.JobUsage;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.RegisterNodeResponse;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.ReportJobExitResponse;
import dev.gantry.scheduler.lifecycle.JobExit;
import dev.gantry.scheduler.runtime.Controller;
import dev.gantry.scheduler.runtime.NodeTracker;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.Status;
import dev.gantry.common.tls.PeerAccess;
import io.grpc.stub.StreamObserver;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The agents' side of the agent API (agent.proto: AgentHub), on the internal server only ({@link SchedulerInternalApi}): every
 * caller is a node agent, and each request speaks for the node its certificate names or is refused
 * (PERMISSION_DENIED): an agent cannot register as, keep alive, or report the exits of another node.
 */
public final class AgentHubGrpcService extends AgentHubGrpc.AgentHubImplBase {

    private final NodeTracker nodes;
    private final Controller controller;
    private final Executor responses;

    public AgentHubGrpcService(SchedulerRuntime runtime) {
        this(runtime.nodes(), runtime.controller(), runtime.responses());
    }

    /** @param responses where responses are completed: never the controller thread */
    public AgentHubGrpcService(NodeTracker nodes, Controller controller, Executor responses) {
        this.nodes = nodes;
        this.controller = controller;
        this.responses = responses;
    }

    @Override
    public void registerNode(RegisterNodeRequest request, StreamObserver<RegisterNodeResponse> out) {
        if (request.getNode().isBlank() || request.getAgentAddress().isBlank()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("node and agent_address: both are required").asRuntimeException());
            return;
        }
        if (!PeerAccess.speaksFor(request.getNode(), "gantry.v1.AgentHub/RegisterNode", out)) {
            return;
        }
        nodes.register(request).whenCompleteAsync(Answers.HOP, responses).whenComplete((reg, error) -> {
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
        if (!PeerAccess.speaksFor(request.getNode(), "gantry.v1.AgentHub/Heartbeat", out)) {
            return; // its usage reports too: they are part of the heartbeat
        }
        Map<Long, Integer> usageRuns = new HashMap<>();
        for (JobUsage u : request.getJobUsageList()) {
            if (u.hasRestartCount()) {
                usageRuns.put(u.getJobId(), u.getRestartCount());
            }
        }
        // the runs it lists: with their run when named (running_jobs), else any run (an older agent's running_job_ids)
        Map<Long, Integer> listed = new HashMap<>();
        request.getRunningJobIdsList().forEach(id -> listed.put(id, JobExit.UNNAMED_RUN));
        request.getRunningJobsList().forEach(rj -> listed.put(rj.getJobId(), rj.getRestartCount()));
        Answers.answer(nodes.heartbeat(request.getNode(), usageRuns, listed), responses, out,
                epoch -> HeartbeatResponse.newBuilder().setControllerEpoch(epoch).build());
    }

    @Override
    public void reportJobExit(ReportJobExitRequest request, StreamObserver<ReportJobExitResponse> out) {
        if (!PeerAccess.speaksFor(request.getNode(), "gantry.v1.AgentHub/ReportJobExit", out)) {
            return;
        }
        Answers.answer(controller.lifecycle.reportExit(request), responses, out,
                v -> ReportJobExitResponse.getDefaultInstance());
    }
}
