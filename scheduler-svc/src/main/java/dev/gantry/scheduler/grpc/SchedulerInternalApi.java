package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.InternalApiFactory;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.InternalServices;
import dev.gantry.common.tls.Peer;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/**
 * scheduler-svc's internal API, on a server of its own (GANTRY_INTERNAL_PORT, default 6827) with mutual TLS
 * (docs/security.md, "Service identity"): the agents' AgentHub, gang-svc's GangControl and the event stream for
 * select-svc and gang-svc, plus gRPC health for any cluster peer. None of these services is a bean, so Micronaut's
 * public server (Controller, Steps, health, reflection) does not serve them: a call there is UNIMPLEMENTED. Its
 * channels, made by {@link InternalApiFactory}, go to select-svc and the agents.
 */
@Factory
public class SchedulerInternalApi extends InternalApiFactory {

    /** scheduler-svc: its certificate must name it. */
    public SchedulerInternalApi() {
        super(Peer.SCHEDULER);
    }

    /** What the internal server serves, each call that needs the database gated on it ({@link DatabaseGate}). */
    @Singleton
    InternalServices services(SchedulerRuntime runtime) {
        return server -> serve(server, new AgentHubGrpcService(runtime), new GangControlGrpcService(runtime),
                new ClusterEventsGrpcService(runtime), new DatabaseGate(runtime.databaseAvailability()));
    }

    /** {@link #serve(InternalServer.Builder, AgentHubGrpc.AsyncService, GangControlGrpc.AsyncService, ClusterEventsGrpc.AsyncService, ServerInterceptor)} without a gate. */
    public static InternalServer.Builder serve(InternalServer.Builder server, AgentHubGrpc.AsyncService hub,
            GangControlGrpc.AsyncService gang, ClusterEventsGrpc.AsyncService events) {
        return serve(server, hub, gang, events, null);
    }

    /**
     * Who may call what: AgentHub any node agent (each request only for its own node, checked by the service),
     * GangControl gang-svc, ClusterEvents select-svc and gang-svc; {@code gate} (may be null) sees each call first.
     */
    public static InternalServer.Builder serve(InternalServer.Builder server, AgentHubGrpc.AsyncService hub,
            GangControlGrpc.AsyncService gang, ClusterEventsGrpc.AsyncService events, ServerInterceptor gate) {
        return server
                .serve(gated(AgentHubGrpc.bindService(hub), gate), PeerAdmission.ANY_NODE)
                .serve(gated(GangControlGrpc.bindService(gang), gate), PeerAdmission.only(Peer.GANG))
                .serve(gated(ClusterEventsGrpc.bindService(events), gate), PeerAdmission.services(Peer.SELECT, Peer.GANG));
    }

    private static ServerServiceDefinition gated(ServerServiceDefinition service, ServerInterceptor gate) {
        return gate == null ? service : ServerInterceptors.intercept(service, gate);
    }
}
