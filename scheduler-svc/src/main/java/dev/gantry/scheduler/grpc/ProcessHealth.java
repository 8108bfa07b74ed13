package dev.gantry.scheduler.grpc;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.micronaut.context.annotation.Context;

/**
 * gRPC health's {@value #SERVICE} service: SERVING whenever the process runs, the active controller's here and a
 * standby's in {@code runtime.StandbyServer}, where the overall health ("") is NOT_SERVING. Kubernetes' start-up and
 * liveness probes ask for it (a standby is live), its readiness probe for "" (only the active controller is ready).
 */
@Context
final class ProcessHealth {

    static final String SERVICE = dev.gantry.scheduler.runtime.StandbyServer.PROCESS_HEALTH;

    ProcessHealth(HealthStatusManager health) {
        health.setStatus(SERVICE, ServingStatus.SERVING);
    }
}
