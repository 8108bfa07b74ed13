package dev.gantry.scheduler.grpc;

import dev.gantry.common.tls.PublicServerTls;
import dev.gantry.common.tls.TlsConfigurationException;
import io.grpc.ServerBuilder;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS on the public port (the client API), when GANTRY_PUBLIC_TLS_CERT and GANTRY_PUBLIC_TLS_KEY name a server
 * certificate (chain) and its key: clients verify the server, and present no certificate (they authenticate as users
 * on every call). Off when both are empty, the default. docs/security.md, "TLS on the public port".
 */
@Singleton
final class PublicTls implements BeanCreatedEventListener<ServerBuilder<?>> {

    private static final Logger LOG = LoggerFactory.getLogger(PublicTls.class);

    private final String certificate;
    private final String key;

    PublicTls(@Value("${gantry.public-tls.cert:}") String certificate, @Value("${gantry.public-tls.key:}") String key) {
        this.certificate = certificate.trim();
        this.key = key.trim();
    }

    @Override
    public ServerBuilder<?> onCreated(BeanCreatedEvent<ServerBuilder<?>> event) {
        ServerBuilder<?> builder = event.getBean();
        if (certificate.isEmpty() && key.isEmpty()) {
            return builder;
        }
        if (certificate.isEmpty() || key.isEmpty()) {
            throw new TlsConfigurationException("GANTRY_PUBLIC_TLS_CERT and GANTRY_PUBLIC_TLS_KEY: set both (TLS on the public "
                    + "port) or neither");
        }
        X509Certificate presented = PublicServerTls.apply(builder, "GANTRY_PUBLIC_TLS_CERT", Path.of(certificate),
                "GANTRY_PUBLIC_TLS_KEY", Path.of(key));
        LOG.info("the public port serves TLS with {} ({})", certificate, presented.getSubjectX500Principal().getName());
        return builder;
    }
}
