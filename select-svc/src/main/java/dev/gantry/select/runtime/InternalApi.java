package dev.gantry.select.runtime;

import dev.gantry.common.events.ClusterEventFollower;
import dev.gantry.common.tls.Admission;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.Peer;
import dev.gantry.common.tls.ServiceTls;
import dev.gantry.select.grpc.SelectGrpcService;
import dev.gantry.select.placement.PlacementPlanner;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * select-svc's internal API: all of Select (Plan, WillRun, EarliestStarts, PlacePreempting), for scheduler-svc alone,
 * on a server of its own (GANTRY_INTERNAL_PORT, default 6828) with mutual TLS (docs/security.md, "Service identity"),
 * plus gRPC health for any cluster peer. The public port keeps health and reflection only.
 */
@Factory
public class InternalApi {

    private static final Logger LOG = LoggerFactory.getLogger(InternalApi.class);

    /** This process's certificate (it must name select-svc), the cluster CA and the key: checked at start. */
    @Singleton
    ServiceTls tls(@Value("${gantry.tls.ca:}") String ca, @Value("${gantry.tls.cert:}") String cert,
            @Value("${gantry.tls.key:}") String key) {
        return ServiceTls.load(ca, cert, key, Peer.SELECT, Instant.now());
    }

    /** The channel to scheduler-svc's event stream. */
    @Singleton
    InternalChannels channels(ServiceTls tls) {
        return new InternalChannels(tls);
    }

    /** Follows scheduler-svc's event stream (gantry.scheduler-address: its internal port) into the replica. */
    @Context
    @Bean(preDestroy = "close")
    ClusterEventFollower events(@Value("${gantry.scheduler-address}") String address, LiveReplica replica, InternalChannels channels) {
        return ClusterEventFollower.followScheduler(channels, address, "select-svc", replica);
    }

    @Context
    @Bean(preDestroy = "close")
    InternalServer internalServer(LiveReplica replica, PlacementPlanner planner, InstantSource clock, MeterRegistry registry,
            ServiceTls tls, @Value("${gantry.internal.host:127.0.0.1}") String host, @Value("${gantry.internal.port:6828}") int port) {
        InternalServer server = serve(InternalServer.on(host, port, tls).withHealth(),
                new SelectGrpcService(replica, planner, clock, registry)).startOrFail();
        LOG.info("internal API (Select) on {}:{}, mutual TLS as {}", host, server.port(), tls.self());
        return server;
    }

    /** Who may call what: Select scheduler-svc alone; calls run on the transport's threads. */
    public static InternalServer.Builder serve(InternalServer.Builder server, SelectGrpcService select) {
        return server.serve(select, Admission.only(Peer.SCHEDULER)).directExecutor();
    }
}
