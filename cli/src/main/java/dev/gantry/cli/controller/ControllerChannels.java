package dev.gantry.cli.controller;

import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.grpc.okhttp.OkHttpChannelBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The one place that opens channels to the controller; every call carries the command's credential
 * ({@link CallerCredential}), and one the controller's rate limit refuses is sent again a second later, as Slurm's
 * commands do ({@link RateLimitBackoff}). OkHttp rather than Netty: a command line tool lives for one call, and OkHttp's transport
 * loads far fewer classes (see docs/benchmarks.md).
 */
public final class ControllerChannels {

    /** How long one call may take before the command reports a timeout (Slurm's MessageTimeout is 10 s). */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private ControllerChannels() {}

    /** A new channel; the caller shuts it down. Connecting happens on the first call. */
    public static ManagedChannel open(ControllerAddress address) {
        return open(address, null);
    }

    /** The same, every call carrying {@code credential}'s authorization header (null: none). */
    public static ManagedChannel open(ControllerAddress address, CallerCredential credential) {
        return open(address, credential, Optional.empty());
    }

    /**
     * The same over TLS when {@code ca} is present: the controller's public port serves a certificate that this CA
     * (PEM) issued for the controller's host name or address (docs/security.md, "TLS on the public port").
     */
    public static ManagedChannel open(ControllerAddress address, CallerCredential credential, Optional<Path> ca) {
        return open(address, credential, ca, true);
    }

    /**
     * Several controllers (the active one and its standby, as controller.addr's lines or GANTRY_CONTROLLER's commas
     * list them): calls follow the one that answers, and one answered UNAVAILABLE is sent to the next at once.
     */
    public static ManagedChannel open(java.util.List<ControllerAddress> addresses, CallerCredential credential, Optional<Path> ca) {
        if (addresses.size() == 1) {
            return open(addresses.get(0), credential, ca);
        }
        return dev.gantry.common.failover.FollowingChannel.open(addresses.stream().map(ControllerAddress::toString).toList(),
                a -> open(ControllerAddress.parse(a), credential, ca, false),
                new RateLimitBackoff(1000, Thread::sleep, addresses.size() - 1));
    }

    private static ManagedChannel open(ControllerAddress address, CallerCredential credential, Optional<Path> ca, boolean backoff) {
        OkHttpChannelBuilder builder;
        if (ca.isPresent()) {
            try {
                builder = OkHttpChannelBuilder.forAddress(address.host(), address.port(),
                        TlsChannelCredentials.newBuilder().trustManager(ca.get().toFile()).build());
            } catch (IOException e) {
                throw new UncheckedIOException("GANTRY_CONTROLLER_CA=" + ca.get() + ": " + e.getMessage(), e);
            }
        } else {
            builder = OkHttpChannelBuilder.forAddress(address.host(), address.port()).usePlaintext();
        }
        // the last added runs first: a call rate limited by the controller is sent again, credential and all
        if (credential != null) {
            builder.intercept(credential);
        }
        if (backoff) {
            builder.intercept(new RateLimitBackoff());
        }
        return builder
                // one blocking call per command: no executor threads to start, no retry machinery to load
                .directExecutor()
                .disableRetry()
                .build();
    }

    /**
     * The CA that vouches for the controller's public port, if it serves TLS: GANTRY_CONTROLLER_CA, else
     * {@code controller-ca.crt} beside the local cluster's {@code controller.addr} ({@code gantry up --public-tls}).
     */
    public static Optional<Path> controllerCa(Map<String, String> environment, Optional<Path> clusterDir) {
        String configured = environment.get("GANTRY_CONTROLLER_CA");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured.trim()));
        }
        return clusterDir.map(d -> d.resolve(CA_FILE)).filter(Files::exists);
    }

    /** The file beside controller.addr that holds the CA of a local cluster's public TLS. */
    public static final String CA_FILE = "controller-ca.crt";
}
