package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.InternalApiFactory;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.InternalServices;
import dev.gantry.common.tls.Peer;
import dev.gantry.common.failover.Fencing;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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

    /**
     * What the internal server serves: each answer's headers carrying this controller's fencing number (an agent
     * learns it registering), and each call that needs the database gated on it ({@link DatabaseGate}).
     */
    @Singleton
    InternalServices services(SchedulerRuntime runtime) {
        return server -> serve(server, new AgentHubGrpcService(runtime), new GangControlGrpcService(runtime),
                new ClusterEventsGrpcService(runtime), Fencing.announce(runtime.lease()::fencing),
                new DatabaseGate(runtime.databaseAvailability()));
    }

    /**
     * Who may call what: AgentHub any node agent (each request only for its own node, checked by the service),
     * GangControl gang-svc, ClusterEvents select-svc and gang-svc; {@code interceptors} see each call, the first
     * listed first.
     */
    public static InternalServer.Builder serve(InternalServer.Builder server, AgentHubGrpc.AsyncService hub,
            GangControlGrpc.AsyncService gang, ClusterEventsGrpc.AsyncService events, ServerInterceptor... interceptors) {
        return server
                .serve(intercepted(AgentHubGrpc.bindService(hub), interceptors), PeerAdmission.ANY_NODE)
                .serve(intercepted(GangControlGrpc.bindService(gang), interceptors), PeerAdmission.only(Peer.GANG))
                .serve(intercepted(ClusterEventsGrpc.bindService(events), interceptors), PeerAdmission.services(Peer.SELECT, Peer.GANG));
    }

    private static ServerServiceDefinition intercepted(ServerServiceDefinition service, ServerInterceptor... interceptors) {
        // ServerInterceptors.intercept runs the last one given first
        List<ServerInterceptor> reversed = new ArrayList<>(List.of(interceptors));
        Collections.reverse(reversed);
        return ServerInterceptors.intercept(service, reversed);
    }
}
