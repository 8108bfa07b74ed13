package dev.gantry.select.runtime;

import dev.gantry.common.events.ClusterEventFollower;
import dev.gantry.common.tls.PeerAdmission;
import dev.gantry.common.tls.InternalApiFactory;
import dev.gantry.common.tls.InternalChannels;
import dev.gantry.common.tls.InternalServer;
import dev.gantry.common.tls.InternalServices;
import dev.gantry.common.tls.Peer;
import dev.gantry.select.grpc.SelectGrpcService;
import dev.gantry.select.placement.PlacementPlanner;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.InstantSource;

/**
 * select-svc's internal API: all of Select (Plan, WillRun, EarliestStarts, PlacePreempting), for scheduler-svc alone,
 * on a server of its own (GANTRY_INTERNAL_PORT, default 6828) with mutual TLS (docs/security.md, "Service identity"),
 * plus gRPC health for any cluster peer. The public port keeps health and reflection only. Its one channel, made by
 * {@link InternalApiFactory}, goes to scheduler-svc's event stream.
 */
@Factory
public class SelectInternalApi extends InternalApiFactory {

    /** select-svc: its certificate must name it. */
    public SelectInternalApi() {
        super(Peer.SELECT);
    }

    /** What the internal server serves. */
    @Singleton
    InternalServices services(LiveReplica replica, PlacementPlanner planner, InstantSource clock, MeterRegistry registry) {
        return server -> serve(server, new SelectGrpcService(replica, planner, clock, registry));
    }

    /** Follows scheduler-svc's event stream (gantry.scheduler-address: its internal port) into the replica. */
    @Context
    @Bean(preDestroy = "close")
    ClusterEventFollower events(@Value("${gantry.scheduler-address}") String address, LiveReplica replica, InternalChannels channels) {
        return ClusterEventFollower.followScheduler(channels, address, "select-svc", replica);
    }

    /** Who may call what: Select scheduler-svc alone; calls run on the transport's threads. */
    public static InternalServer.Builder serve(InternalServer.Builder server, SelectGrpcService select) {
        return server.serve(select, PeerAdmission.only(Peer.SCHEDULER)).directExecutor();
    }
}
