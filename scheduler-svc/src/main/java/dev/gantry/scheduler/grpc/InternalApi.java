package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ClusterEventsGrpc;
import dev.gantry.api.v1.GangControlGrpc;
import dev.gantry.common.tls.Admission;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.Peer;
import dev.gantry.common.tls.ServiceTls;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * scheduler-svc's internal API, on a server of its own (GANTRY_INTERNAL_PORT, default 6827) with mutual TLS
 * (docs/security.md, "Service identity"): the agents' AgentHub, gang-svc's GangControl and the event stream for
 * select-svc and gang-svc, plus gRPC health for any cluster peer. None of these services is a bean, so Micronaut's
 * public server (Controller, Steps, health, reflection) does not serve them: a call there is UNIMPLEMENTED.
 */
@Factory
public class InternalApi {

    private static final Logger LOG = LoggerFactory.getLogger(InternalApi.class);

    /** This process's certificate (it must name scheduler-svc), the cluster CA and the key: checked at start. */
    @Singleton
    ServiceTls tls(@Value("${gantry.tls.ca:}") String ca, @Value("${gantry.tls.cert:}") String cert,
            @Value("${gantry.tls.key:}") String key) {
        return ServiceTls.load(ca, cert, key, Peer.SCHEDULER, Instant.now());
    }

    /** Channels to select-svc and the agents. */
    @Singleton
    InternalChannels channels(ServiceTls tls) {
        return new InternalChannels(tls);
    }

    @Context
    @Bean(preDestroy = "close")
    InternalServer internalServer(SchedulerRuntime runtime, ServiceTls tls, @Value("${gantry.internal.host:127.0.0.1}") String host,
            @Value("${gantry.internal.port:6827}") int port) {
        InternalServer server = serve(InternalServer.on(host, port, tls).withHealth(), new AgentHubGrpcService(runtime),
                new GangControlGrpcService(runtime), new ClusterEventsGrpcService(runtime)).startOrFail();
        LOG.info("internal API (AgentHub, GangControl, ClusterEvents) on {}:{}, mutual TLS as {}", host, server.port(), tls.self());
        return server;
    }

    /**
     * Who may call what: AgentHub any node agent (each request only for its own node, checked by the service),
     * GangControl gang-svc, ClusterEvents select-svc and gang-svc.
     */
    public static InternalServer.Builder serve(InternalServer.Builder server, AgentHubGrpc.AsyncService hub,
            GangControlGrpc.AsyncService gang, ClusterEventsGrpc.AsyncService events) {
        return server
                .serve(AgentHubGrpc.bindService(hub), Admission.ANY_NODE)
                .serve(GangControlGrpc.bindService(gang), Admission.only(Peer.GANG))
                .serve(ClusterEventsGrpc.bindService(events), Admission.services(Peer.SELECT, Peer.GANG));
    }
}
