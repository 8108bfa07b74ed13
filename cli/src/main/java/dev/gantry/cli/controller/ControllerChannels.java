package dev.gantry.cli.controller;

import dev.gantry.common.config.SchedulerParameters;
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

    /**
     * The largest answer a command takes, in bytes, where grpc-java's default is 4 MiB: twice Gantry's largest
     * max_script_size, so a job whose script is at the controller's limit, environment and all, is read back whole
     * (scontrol write batch_script, scontrol show job) whatever max_script_size the controller has.
     */
    static final int MAX_ANSWER_BYTES = 2 * SchedulerParameters.MAX_SCRIPT_SIZE_BOUND;

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
        ManagedChannel channel = dev.gantry.common.failover.FollowingChannel.open(addresses.stream().map(ControllerAddress::toString).toList(),
                a -> open(ControllerAddress.parse(a), credential, ca, false),
                new RateLimitBackoff(1000, Thread::sleep, addresses.size() - 1));
        if (channel instanceof dev.gantry.common.failover.FollowingChannel following) {
            preferActive(following, PROBE_WITHIN);
        }
        return channel;
    }

    /** How long a command with several controller addresses waits to learn which one is active. */
    static final java.time.Duration PROBE_WITHIN = java.time.Duration.ofMillis(1500);

    /**
     * Asks every controller at once a cheap question and sends the command's calls to the first that answers it: the
     * active one. A standby answers UNAVAILABLE at once and a frozen controller not at all, and a call sent to a frozen
     * one could not be sent elsewhere (a submission that timed out there may yet be committed). When none answers within
     * {@code within}, the calls go to the first address, as they would have.
     */
    static void preferActive(dev.gantry.common.failover.FollowingChannel channel, java.time.Duration within) {
        java.util.concurrent.CompletableFuture<String> active = new java.util.concurrent.CompletableFuture<>();
        for (String target : channel.targets()) {
            Thread.ofVirtual().name("controller-probe").start(() -> {
                try {
                    dev.gantry.api.v1.ControllerGrpc.newBlockingStub(channel.channelTo(target))
                            .withDeadlineAfter(within.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                            .listPartitions(dev.gantry.api.v1.ListPartitionsRequest.getDefaultInstance());
                    active.complete(target);
                } catch (RuntimeException notActive) {
                    // a standby, a frozen or a stopped controller
                }
            });
        }
        try {
            channel.prefer(active.get(within.toMillis() + 200, java.util.concurrent.TimeUnit.MILLISECONDS));
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            // none answered: the first address, and the failover on UNAVAILABLE
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
                .maxInboundMessageSize(MAX_ANSWER_BYTES)
                .flowControlWindow(8 << 20)
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
