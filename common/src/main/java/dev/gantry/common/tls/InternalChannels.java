package dev.gantry.common.tls;

import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContext;
import java.io.UncheckedIOException;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * Channels to other services' internal servers: mutual TLS with this process's certificate, and the server must
 * present a certificate from the cluster CA naming the peer the caller means to reach (scheduler-svc, select-svc, the
 * agent of node n3) — that check replaces host-name verification ({@link CaTrust}). Keep each channel for as long as
 * its peer is used (one per peer and address): a connection's handshake is paid once, not per call. Thread-safe.
 */
public final class InternalChannels {

    private final ServiceTls tls;
    /** One TLS context per peer reached: its trust manager expects that peer. */
    private final ConcurrentHashMap<Peer, SslContext> contexts = new ConcurrentHashMap<>();

    public InternalChannels(ServiceTls tls) {
        this.tls = tls;
    }

    /** This process's identity. */
    public ServiceTls tls() {
        return tls;
    }

    /** A channel to {@code target} (host:port) whose server must be {@code peer}. */
    public ManagedChannel open(String target, Peer peer) {
        return builder(target, contexts.computeIfAbsent(peer, p -> clientContext(tls, PeerAdmission.only(p)))).build();
    }

    /**
     * As {@link #open(String, Peer)}, with a gRPC service config (its retry policies, timeouts) for the channel's calls;
     * calls of up to 32 MiB are kept for a retry.
     */
    public ManagedChannel open(String target, Peer peer, Map<String, ?> serviceConfig) {
        return builder(target, contexts.computeIfAbsent(peer, p -> clientContext(tls, PeerAdmission.only(p))))
                .defaultServiceConfig(serviceConfig).enableRetry()
                .perRpcBufferLimit(32L << 20).retryBufferSize(64L << 20)
                .build();
    }

    /** As {@link #open(String, Peer)}, every call going through {@code interceptors} (e.g. {@code Fencing}'s). */
    public ManagedChannel open(String target, Peer peer, io.grpc.ClientInterceptor... interceptors) {
        return builder(target, contexts.computeIfAbsent(peer, p -> clientContext(tls, PeerAdmission.only(p)))).intercept(interceptors).build();
    }

    /** As {@link #open(String, Peer, Map)}, every call going through {@code interceptors} (e.g. {@code Fencing}'s). */
    public ManagedChannel open(String target, Peer peer, Map<String, ?> serviceConfig, io.grpc.ClientInterceptor... interceptors) {
        return builder(target, contexts.computeIfAbsent(peer, p -> clientContext(tls, PeerAdmission.only(p))))
                .defaultServiceConfig(serviceConfig).enableRetry()
                .perRpcBufferLimit(32L << 20).retryBufferSize(64L << 20)
                .intercept(interceptors).build();
    }

    /** A channel to {@code target} whose server must be a peer {@code expected} admits. */
    public ManagedChannel open(String target, PeerAdmission expected) {
        return builder(target, clientContext(tls, expected)).build();
    }

    private static NettyChannelBuilder builder(String target, SslContext context) {
        return NettyChannelBuilder.forTarget(target)
                .sslContext(context)
                .maxInboundMessageSize(InternalServer.MAX_MESSAGE_BYTES)
                .keepAliveTime(30, TimeUnit.SECONDS);
    }

    static SslContext clientContext(ServiceTls tls, PeerAdmission expected) {
        try {
            return GrpcSslContexts.forClient()
                    .keyManager(tls.key(), tls.chain().toArray(X509Certificate[]::new))
                    .trustManager(new CaTrust(tls.ca(), expected))
                    .protocols("TLSv1.3")
                    .build();
        } catch (SSLException e) {
            throw new UncheckedIOException("cannot set up TLS for a channel: " + e.getMessage(), e);
        }
    }
}
