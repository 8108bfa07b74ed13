package dev.gantry.gang.runtime;

import dev.gantry.common.events.ClusterEventFollower;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.InternalApiFactory;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.failover.Fencing;
import dev.gantry.common.tls.InternalServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import dev.gantry.common.tls.InternalServices;
import dev.gantry.common.tls.Peer;
import dev.gantry.gang.grpc.GangGrpcService;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

/**
 * gang-svc's internal API: Gang (GetGangState, read-only status) for any peer the cluster CA certified, on a server of
 * its own (GANTRY_INTERNAL_PORT, default 6829) with mutual TLS, plus gRPC health. gang-svc serves nothing else: it
 * decides and calls scheduler-svc (event stream, GangControl) as a client, over the channels
 * {@link InternalApiFactory} makes. The public port keeps health and reflection.
 */
@Factory
public class GangInternalApi extends InternalApiFactory {

    /** gang-svc: its certificate must name it. */
    public GangInternalApi() {
        super(Peer.GANG);
    }

    /** What the internal server serves. */
    @Singleton
    InternalServices services(LiveGang gang) {
        return server -> serve(server, new GangGrpcService(gang));
    }

    /** Follows scheduler-svc's event stream (gantry.scheduler-address: its internal port) into the gang state. */
    @Context
    @Bean(preDestroy = "close")
    ClusterEventFollower events(@Value("${gantry.scheduler-address}") String address, LiveGang gang, InternalChannels channels,
            Fencing.Guard fencing) {
        return ClusterEventFollower.followScheduler(channels, address, "gang-svc", gang, fencing);
    }

    /**
     * The highest controller fencing number gang-svc has seen (its event stream's and GangControl's answers): a deposed
     * controller's stream is not taken, nor its answers (docs/ARCHITECTURE.md, "Standby controller").
     */
    @Singleton
    Fencing.Guard fencing(MeterRegistry registry) {
        return new Fencing.Guard(Counter.builder("gantry_gang_fenced_total").description(
                "Event streams and GangControl answers of a deposed controller refused:"
                + " they carried a lower fencing number than one seen before").register(registry)::increment);
    }

    /** Who may call what: Gang any cluster peer (services, agents). */
    public static InternalServer.Builder serve(InternalServer.Builder server, GangGrpcService gang) {
        return server.serve(gang, PeerAdmission.ANY_PEER);
    }
}
