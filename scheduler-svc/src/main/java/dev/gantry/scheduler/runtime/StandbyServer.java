package dev.gantry.scheduler.runtime;

import dev.gantry.common.failover.ControllerRedirect;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.HandlerRegistry;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import dev.gantry.common.tls.PublicServerTls;
import java.nio.file.Path;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What a standby controller serves on its public port while another one holds the lease: gRPC health answering
 * NOT_SERVING (so a Kubernetes Service or a load balancer routes to the active one, while the process stays live), and
 * every other call UNAVAILABLE with the active controller's address in the {@code gantry-active-controller} trailer
 * (clients switch to it). The internal port stays closed: agents, select-svc and gang-svc find it refused and try the
 * next controller address. Closed before the controller's own server takes the port.
 */
public final class StandbyServer implements AutoCloseable {

    /** gRPC health's service that answers SERVING while the process runs, standby or active (Kubernetes' liveness). */
    public static final String PROCESS_HEALTH = "gantry.process";

    private final Server server;

    private StandbyServer(Server server) {
        this.server = server;
    }

    /**
     * @param tlsCert the public port's certificate and key (PEM), as the controller's own server uses them; blank: plaintext
     * @param active the active controller's client address, as the lease names it (may change while serving)
     * @param maxMessageBytes the largest inbound message, as the active controller's public port takes: a submission
     *     it would take is redirected here, not cut off by the transport
     */
    public static StandbyServer start(String host, int port, String tlsCert, String tlsKey, Supplier<String> active,
            int maxMessageBytes) throws IOException {
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("", ServingStatus.NOT_SERVING);
        health.setStatus("gantry.v1.Controller", ServingStatus.NOT_SERVING);
        health.setStatus(PROCESS_HEALTH, ServingStatus.SERVING);
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port));
        if (!tlsCert.isBlank() && !tlsKey.isBlank()) {
            PublicServerTls.apply(builder, "GANTRY_PUBLIC_TLS_CERT", Path.of(tlsCert), "GANTRY_PUBLIC_TLS_KEY", Path.of(tlsKey));
        }
        Server server = builder
                .maxInboundMessageSize(maxMessageBytes)
                .addService(health.getHealthService())
                .fallbackHandlerRegistry(new Redirects(active))
                .build().start();
        return new StandbyServer(server);
    }

    /** Answers any method with UNAVAILABLE and the redirect. */
    private static final class Redirects extends HandlerRegistry {
        private final Supplier<String> active;

        Redirects(Supplier<String> active) {
            this.active = active;
        }

        @Override
        public ServerMethodDefinition<?, ?> lookupMethod(String methodName, String authority) {
            io.grpc.MethodDescriptor<byte[], byte[]> method = io.grpc.MethodDescriptor.<byte[], byte[]>newBuilder()
                    .setFullMethodName(methodName).setType(io.grpc.MethodDescriptor.MethodType.UNKNOWN)
                    .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
            ServerCallHandler<byte[], byte[]> handler = (ServerCall<byte[], byte[]> call, Metadata headers) -> {
                String to = active.get();
                Metadata trailers = new Metadata();
                if (to != null && !to.isBlank()) {
                    trailers.put(ControllerRedirect.ACTIVE_CONTROLLER, to);
                }
                call.close(Status.UNAVAILABLE.withDescription(ControllerRedirect.STANDBY_PREFIX
                        + (to == null || to.isBlank() ? "no active controller known" : "the active one is at " + to)), trailers);
                return new ServerCall.Listener<>() {};
            };
            return ServerMethodDefinition.create(method, handler);
        }
    }

    private static final io.grpc.MethodDescriptor.Marshaller<byte[]> BYTES = new io.grpc.MethodDescriptor.Marshaller<>() {
        @Override
        public java.io.InputStream stream(byte[] value) {
            return new java.io.ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(java.io.InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    };

    /** Stops and waits until the port is free. */
    @Override
    public void close() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(10, TimeUnit.SECONDS);
    }
}
