package dev.gantry.common.tls;

/**
 * What a service's internal server serves, and to whom: a service's {@code InternalApi} makes one as a bean, and
 * {@link InternalApiFactory} starts the server with it.
 */
@FunctionalInterface
public interface InternalServices {

    /** Adds the service's gRPC services, each with its {@link PeerAdmission}, to {@code server}. */
    InternalServer.Builder addTo(InternalServer.Builder server);
}
