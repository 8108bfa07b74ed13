package dev.gantry.gang.grpc;

import io.grpc.BindableService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** Serves gRPC server reflection (grpcurl, grpc_cli); Micronaut registers the health service itself. */
@Factory
class GangReflection {
    @Singleton
    BindableService reflection() {
        return ProtoReflectionServiceV1.newInstance();
    }
}
