package dev.gantry.cli.controller;

import io.grpc.ManagedChannel;
import io.grpc.okhttp.OkHttpChannelBuilder;
import java.time.Duration;

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
        OkHttpChannelBuilder builder = OkHttpChannelBuilder.forAddress(address.host(), address.port());
        // the last added runs first: a call rate limited by the controller is sent again, credential and all
        if (credential != null) {
            builder.intercept(credential);
        }
        builder.intercept(new RateLimitBackoff());
        return builder
                .usePlaintext()
                // one blocking call per command: no executor threads to start, no retry machinery to load
                .directExecutor()
                .disableRetry()
                .build();
    }
}
