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
import dev.gantry.common.failover.Fencing;
import io.grpc.ServerInterceptors;
import io.micrometer.core.instrument.Counter;
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
    InternalServices services(LiveReplica replica, PlacementPlanner planner, InstantSource clock, MeterRegistry registry,
            Fencing.Guard fencing) {
        return server -> serve(server, new SelectGrpcService(replica, planner, clock, registry), fencing);
    }

    /**
     * The highest controller fencing number select-svc has seen (its event stream's answers, the controller's calls):
     * a deposed controller's calls are refused and its stream is not taken (docs/ARCHITECTURE.md, "Standby controller").
     */
    @Singleton
    Fencing.Guard fencing(MeterRegistry registry) {
        return new Fencing.Guard(Counter.builder("gantry_select_fenced_total").description(
                "Calls and event streams of a deposed controller refused:"
                + " they carried a lower fencing number than one seen before").register(registry)::increment);
    }

    /** Follows scheduler-svc's event stream (gantry.scheduler-address: its internal port) into the replica. */
    @Context
    @Bean(preDestroy = "close")
    ClusterEventFollower events(@Value("${gantry.scheduler-address}") String address, LiveReplica replica, InternalChannels channels,
            Fencing.Guard fencing) {
        return ClusterEventFollower.followScheduler(channels, address, "select-svc", replica, fencing);
    }

    /** Who may call what: Select scheduler-svc alone; calls run on the transport's threads. */
    public static InternalServer.Builder serve(InternalServer.Builder server, SelectGrpcService select) {
        return serve(server, select, new Fencing.Guard(() -> { }));
    }

    /** As above, each call checked against the highest controller fencing number seen ({@link Fencing.Guard}). */
    public static InternalServer.Builder serve(InternalServer.Builder server, SelectGrpcService select, Fencing.Guard fencing) {
        return server.serve(ServerInterceptors.intercept(select, fencing), PeerAdmission.only(Peer.SCHEDULER)).directExecutor();
    }
}
