package dev.gantry.common.tls;

import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's internal gRPC server: its own port, apart from the public one, TLS 1.3 only, a client certificate from
 * the cluster CA required on every connection ({@link CaTrust}), and every call admitted by its service's or method's
 * {@link PeerAdmission} ({@link PeerAccess}). A connection without a certificate, with one from another CA or naming no
 * peer fails in the handshake; a certified peer calling what it may not ends PERMISSION_DENIED. Only the services
 * added here are served (a call of any other is UNIMPLEMENTED).
 *
 * <p>Connections are long-lived: clients keep one channel per peer ({@link InternalChannels}), so a handshake is paid
 * once per connection, not per call. Thread-safe once started.
 */
public final class InternalServer implements AutoCloseable {

    /**
     * Internal peers are trusted with large messages (a Plan of the whole queue, a launch with its job's script: so
     * SchedulerParameters.MAX_SCRIPT_SIZE_BOUND stays well below this), in bytes.
     */
    public static final int MAX_MESSAGE_BYTES = 256 << 20;

    private static final Logger LOG = LoggerFactory.getLogger(InternalServer.class);

    private final Server server;
    private final HealthStatusManager health;

    private InternalServer(Server server, HealthStatusManager health) {
        this.server = server;
        this.health = health;
    }

    /**
     * What its gRPC health says (when served, {@link Builder#withHealth}): SERVING, or NOT_SERVING while the service
     * cannot do its work (scheduler-svc without its database).
     */
    public void setServing(boolean serving) {
        if (health != null) {
            health.setStatus("", serving ? HealthCheckResponse.ServingStatus.SERVING : HealthCheckResponse.ServingStatus.NOT_SERVING);
        }
    }

    /** A server for {@code host:port} (port 0: any free port) presenting {@code tls}'s certificate. */
    public static Builder on(String host, int port, ServiceTls tls) {
        return new Builder(host, port, tls);
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    /**
     * Stops taking calls, lets running ones finish for up to a second, then cancels the rest (long-lived calls such as
     * the event stream never finish by themselves; their clients reconnect, unary callers retry).
     */
    @Override
    public void close() {
        server.shutdown();
        try {
            if (!server.awaitTermination(1, TimeUnit.SECONDS)) {
                server.shutdownNow();
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** What the server serves, and to whom. */
    public static final class Builder {
        private final String host;
        private final int port;
        private final ServiceTls tls;
        private final List<ServerServiceDefinition> services = new ArrayList<>();
        private final Map<String, PeerAdmission> byService = new LinkedHashMap<>();
        private final Map<String, PeerAdmission> byMethod = new LinkedHashMap<>();
        private boolean direct;
        private HealthStatusManager health;

        private Builder(String host, int port, ServiceTls tls) {
            this.host = host;
            this.port = port;
            this.tls = tls;
        }

        /** Serves {@code service} to the peers {@code who} admits. */
        public Builder serve(BindableService service, PeerAdmission who) {
            return serve(service.bindService(), who);
        }

        /** Serves {@code service} to the peers {@code who} admits. */
        public Builder serve(ServerServiceDefinition service, PeerAdmission who) {
            services.add(service);
            byService.put(service.getServiceDescriptor().getName(), who);
            return this;
        }

        /** One method of a served service admits {@code who} instead of its service's peers. */
        public Builder method(MethodDescriptor<?, ?> method, PeerAdmission who) {
            byMethod.put(method.getFullMethodName(), who);
            return this;
        }

        /** Serves gRPC health to any cluster peer, reporting SERVING from the moment the server has started. */
        public Builder withHealth() {
            health = new HealthStatusManager();
            return serve(health.getHealthService(), PeerAdmission.ANY_PEER);
        }

        /** Calls run on the transport's threads (handlers that never block; see select-svc's DirectCalls). */
        public Builder directExecutor() {
            this.direct = true;
            return this;
        }

        /** Binds the port and starts serving. */
        public InternalServer start() throws IOException {
            PeerAccess access = new PeerAccess(byService, byMethod);
            NettyServerBuilder b = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                    .sslContext(serverContext(tls))
                    .maxInboundMessageSize(MAX_MESSAGE_BYTES)
                    // clients ping every 30 s on long calls (the event stream) to notice a dead peer; allow it
                    .permitKeepAliveTime(10, TimeUnit.SECONDS)
                    .permitKeepAliveWithoutCalls(true);
            if (direct) {
                b.directExecutor();
            }
            for (ServerServiceDefinition s : services) {
                b.addService(ServerInterceptors.intercept(s, access));
            }
            InternalServer started = new InternalServer(b.build().start(), health);
            if (health != null) {
                health.setStatus("", HealthCheckResponse.ServingStatus.SERVING);
            }
            return started;
        }

        /**
         * {@link #start()}, where a port that cannot be bound fails the service's start with a message naming the
         * setting (GANTRY_INTERNAL_PORT) and the address; once listening it logs what it serves, where, and as whom.
         */
        public InternalServer startOrFail() {
            InternalServer started;
            try {
                started = start();
            } catch (IOException e) {
                throw new UncheckedIOException("GANTRY_INTERNAL_PORT=" + port + ": cannot listen on " + host + ":" + port + ": "
                        + e.getMessage(), e);
            }
            LOG.info("internal API ({}) on {}:{}, mutual TLS as {}", servedApis(), host, started.port(), tls.self());
            return started;
        }

        /** The served services' short names in the order added, health left out: "AgentHub, GangControl, ClusterEvents". */
        private String servedApis() {
            return services.stream()
                    .map(s -> s.getServiceDescriptor().getName())
                    .filter(name -> !name.equals(HealthGrpc.SERVICE_NAME))
                    .map(name -> name.substring(name.lastIndexOf('.') + 1))
                    .collect(Collectors.joining(", "));
        }
    }

    static SslContext serverContext(ServiceTls tls) {
        try {
            return GrpcSslContexts.configure(SslContextBuilder.forServer(tls.key(), tls.chain().toArray(X509Certificate[]::new)))
                    .trustManager(new CaTrust(tls.ca(), PeerAdmission.ANY_PEER))
                    .clientAuth(ClientAuth.REQUIRE)
                    .protocols("TLSv1.3")
                    .build();
        } catch (SSLException e) {
            throw new UncheckedIOException("cannot set up TLS for the internal server: " + e.getMessage(), e);
        }
    }
}
