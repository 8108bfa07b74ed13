package dev.gantry.gang.runtime;

import dev.gantry.common.events.ClusterEventFollower;
import dev.gantry.common.tls.Admission;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.Peer;
import dev.gantry.common.tls.ServiceTls;
import dev.gantry.gang.grpc.GangGrpcService;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gang-svc's internal API: Gang (GetGangState, read-only status) for any peer the cluster CA certified, on a server of
 * its own (GANTRY_INTERNAL_PORT, default 6829) with mutual TLS, plus gRPC health. gang-svc serves nothing else: it
 * decides and calls scheduler-svc (event stream, GangControl) as a client. The public port keeps health and reflection.
 */
@Factory
public class InternalApi {

    private static final Logger LOG = LoggerFactory.getLogger(InternalApi.class);

    /** This process's certificate (it must name gang-svc), the cluster CA and the key: checked at start. */
    @Singleton
    ServiceTls tls(@Value("${gantry.tls.ca:}") String ca, @Value("${gantry.tls.cert:}") String cert,
            @Value("${gantry.tls.key:}") String key) {
        return ServiceTls.load(ca, cert, key, Peer.GANG, Instant.now());
    }

    /** The channels to scheduler-svc. */
    @Singleton
    InternalChannels channels(ServiceTls tls) {
        return new InternalChannels(tls);
    }

    /** Follows scheduler-svc's event stream (gantry.scheduler-address: its internal port) into the gang state. */
    @Context
    @Bean(preDestroy = "close")
    ClusterEventFollower events(@Value("${gantry.scheduler-address}") String address, LiveGang gang, InternalChannels channels) {
        return ClusterEventFollower.followScheduler(channels, address, "gang-svc", gang);
    }

    @Context
    @Bean(preDestroy = "close")
    InternalServer internalServer(LiveGang gang, ServiceTls tls, @Value("${gantry.internal.host:127.0.0.1}") String host,
            @Value("${gantry.internal.port:6829}") int port) {
        InternalServer server = serve(InternalServer.on(host, port, tls).withHealth(), new GangGrpcService(gang)).startOrFail();
        LOG.info("internal API (Gang) on {}:{}, mutual TLS as {}", host, server.port(), tls.self());
        return server;
    }

    /** Who may call what: Gang any cluster peer (services, agents). */
    public static InternalServer.Builder serve(InternalServer.Builder server, GangGrpcService gang) {
        return server.serve(gang, Admission.ANY_PEER);
    }
}
