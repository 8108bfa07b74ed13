package dev.gantry.select.grpc;

import io.grpc.BindableService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** Serves gRPC server reflection, v1 and v1alpha (grpcurl, grpc_cli); Micronaut registers the health service itself. */
@Factory
class SelectReflection {
    @Singleton
    BindableService reflection() {
        return ProtoReflectionServiceV1.newInstance();
    }

    /** The older v1alpha reflection, which older grpcurl and many tools still ask for. */
    @Singleton
    @jakarta.inject.Named("reflection-v1alpha")
    @SuppressWarnings("deprecation")
    BindableService reflectionV1alpha() {
        return io.grpc.protobuf.services.ProtoReflectionService.newInstance();
    }
}
