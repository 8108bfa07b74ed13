package dev.gantry.scheduler.grpc;

import dev.gantry.common.tls.InternalServer;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.ServerInterceptor;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import dev.gantry.scheduler.store.DatabaseAvailability;

/**
 * The database's availability in what scheduler-svc's servers say: gRPC health of the public port (Micronaut's
 * HealthStatusManager) and of the internal port NOT_SERVING while it is down, SERVING again once it commits; and the
 * {@link DatabaseGate} on both (the public server takes every ServerInterceptor bean; {@link SchedulerInternalApi}
 * puts the same gate on the internal one).
 */
@Factory
class DatabaseHealth {

    /** UNAVAILABLE for calls that need the database while it is down (public server). */
    @Singleton
    ServerInterceptor databaseGate(SchedulerRuntime runtime) {
        return new DatabaseGate(runtime.databaseAvailability());
    }

    /** Health follows the database. */
    @Context
    Listening healthFollowsDatabase(SchedulerRuntime runtime, HealthStatusManager publicHealth, InternalServer internal) {
        DatabaseAvailability availability = runtime.databaseAvailability();
        availability.onChange(change -> serving(publicHealth, internal, availability));
        serving(publicHealth, internal, availability);
        return new Listening();
    }

    /** Sets both from the availability now (not from the change told: changes told on two threads may cross). */
    private static synchronized void serving(HealthStatusManager publicHealth, InternalServer internal,
            DatabaseAvailability availability) {
        boolean up = availability.isUp();
        publicHealth.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, up ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
        internal.setServing(up);
    }

    /** The bean that made health follow the database. */
    static final class Listening {}
}
