package dev.gantry.common.tls;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Instant;

/**
 * A service's internal-API wiring, the same in every service: its {@link ServiceTls} (the cluster CA, its certificate
 * and key from GANTRY_TLS_CA, GANTRY_TLS_CERT and GANTRY_TLS_KEY, checked at start to name the service), its
 * {@link InternalChannels} to the peers it calls, and its {@link InternalServer} on gantry.internal.host and
 * gantry.internal.port (GANTRY_BIND_HOST, GANTRY_INTERNAL_PORT; each service's application.yml holds its default port)
 * with gRPC health and the service's {@link InternalServices}, started with the context.
 *
 * <p>Each of scheduler-svc, select-svc and gang-svc has an {@code InternalApi} Micronaut {@code @Factory} extending
 * this with its {@link Peer} and an {@link InternalServices} bean; Micronaut defines these methods' beans for that
 * subclass (this class itself is no bean). The node agent makes its own: its certificate names its node, and its
 * configuration errors are the agent's. Micronaut is an optional dependency of common, present in the services only.
 */
public abstract class InternalApiFactory {

    private final Peer self;

    /** @param self the service this process is: its certificate must name it */
    protected InternalApiFactory(Peer self) {
        this.self = self;
    }

    /** This process's certificate (it must name the service), the cluster CA and the key: checked at start. */
    @Singleton
    public ServiceTls tls(@Value("${gantry.tls.ca:}") String ca, @Value("${gantry.tls.cert:}") String cert,
            @Value("${gantry.tls.key:}") String key) {
        return ServiceTls.load(ca, cert, key, self, Instant.now());
    }

    /** The long-lived mutual-TLS channels to the peers this service calls. */
    @Singleton
    public InternalChannels channels(ServiceTls tls) {
        return new InternalChannels(tls);
    }

    /** The internal server, listening once the context has started; a port it cannot bind fails the start. */
    @Context
    @Bean(preDestroy = "close")
    public InternalServer internalServer(ServiceTls tls, InternalServices services,
            @Value("${gantry.internal.host:127.0.0.1}") String host, @Value("${gantry.internal.port}") int port) {
        return services.addTo(InternalServer.on(host, port, tls).withHealth()).startOrFail();
    }
}
