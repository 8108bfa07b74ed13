package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.common.auth.Identity;
import dev.gantry.common.auth.Jwt;
import dev.gantry.common.auth.Tokens;
import dev.gantry.common.authn.CallerAuthenticator;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.Ed25519;
import dev.gantry.scheduler.grpc.ControllerGrpcService;
import dev.gantry.scheduler.store.StateStore;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.security.KeyPair;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The client API (ControllerGrpcService) served in-process over a {@link ControllerHarness}: what clients see over
 * gRPC, with no select-svc and no agents. {@link #restart()} starts a new controller from what the old one stored.
 * Callers authenticate as in production: the service sits behind the {@link Callers} interceptor, which accepts local
 * tokens signed with the rig's own authentication key; {@link #api()} calls as {@link #ALICE}, {@link #as} as anyone.
 */
final class ControllerApiRig implements AutoCloseable {

    /** The user the tests' jobs belong to. */
    static final Identity ALICE = new Identity("alice", 1000, 1000, List.of(1000L), "local");
    private final KeyPair authKey = CredentialKeys.generate();
    /** The cluster's auth/jwt key (AuthAltTypes=auth/jwt): tokens from CreateToken are accepted too. */
    static final byte[] JWT_KEY = "a test key of thirty-two bytes!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final CallerAuthenticator authenticator = new CallerAuthenticator(new CallerAuthenticator.Settings(true, false,
            Optional.empty(), true, new Jwt.Keys(Optional.of(JWT_KEY), Map.of(Tokens.LOCAL_KEY_ID,
                    Ed25519.VerifyingKey.of(authKey.getPublic())))), InstantSource.system());
    private final dev.gantry.scheduler.grpc.TokenIssuer tokens = new dev.gantry.scheduler.grpc.TokenIssuer(Optional.of(JWT_KEY),
            InstantSource.system());

    private final String config;
    private final StateStore stateStore = new StateStore.InMemory();
    private final ExecutorService responses = Executors.newVirtualThreadPerTaskExecutor();
    private ControllerHarness harness;
    private Server server;
    private ManagedChannel channel;
    private ControllerGrpc.ControllerBlockingStub stub;
    private dev.gantry.api.v1.StepsGrpc.StepsBlockingStub steps;
    private JobWatch jobWatch;
    private dev.gantry.scheduler.grpc.RequestLimits limits;

    ControllerApiRig(String config) throws Exception {
        this.config = config;
        serve(new ControllerHarness(config, new ControllerHarness.MemoryStore(), stateStore));
    }

    /** The blocking stub of the current controller, calling as {@link #ALICE}. */
    ControllerGrpc.ControllerBlockingStub api() {
        return as(ALICE);
    }

    /** The stub calling as {@code who}, with a local token the rig's authenticator signed. */
    ControllerGrpc.ControllerBlockingStub as(Identity who) {
        return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headersOf(who)));
    }

    /** The stub sending {@code token} as its bearer credential (a JSON web token, e.g. one CreateToken issued). */
    ControllerGrpc.ControllerBlockingStub withToken(String token) {
        Metadata headers = new Metadata();
        headers.put(Callers.AUTHORIZATION, "Bearer " + token);
        return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    /** The Steps service's stub calling as {@code who}. */
    dev.gantry.api.v1.StepsGrpc.StepsBlockingStub stepsAs(Identity who) {
        return steps.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headersOf(who)));
    }

    /** The channel's async stub calling as {@code who} (for streams a test reads at its own pace). */
    ControllerGrpc.ControllerStub asyncAs(Identity who) {
        return ControllerGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headersOf(who)));
    }

    /** The served WatchJobs (its watchers' shared budget). */
    JobWatch jobWatch() {
        return jobWatch;
    }

    /** The served request limits (open streams). */
    dev.gantry.scheduler.grpc.RequestLimits limits() {
        return limits;
    }

    private Metadata headersOf(Identity who) {
        String token = Jwt.signEd25519(Tokens.localClaims(who, "n1", java.time.Instant.now(), "rig"), Tokens.LOCAL_KEY_ID,
                Ed25519.SigningKey.of(authKey.getPrivate()));
        Metadata headers = new Metadata();
        headers.put(Callers.AUTHORIZATION, "Bearer " + token);
        return headers;
    }

    /** The stub with no credential at all. */
    ControllerGrpc.ControllerBlockingStub anonymous() {
        return stub;
    }

    /** The controller behind the API (its clock, its passes). */
    ControllerHarness harness() {
        return harness;
    }

    /** Stops the controller and starts a new one from the same store, as a controller restart does. */
    void restart() throws Exception {
        restart(store -> {});
    }

    /**
     * A restart during which {@code whileDown} changes what the store holds, e.g. into rows an older version of the
     * controller wrote; the new controller starts from them.
     */
    void restart(Consumer<ControllerHarness.MemoryStore> whileDown) throws Exception {
        ControllerHarness.MemoryStore store = harness.store;
        stop();
        whileDown.accept(store);
        serve(new ControllerHarness(config, store, stateStore));
    }

    /**
     * Serves the Controller and Steps services as production does: behind authentication, then the request limits of the
     * config's SlurmctldParameters (counted on the harness's clock), with WatchJobs' shared buffer of watch_buffer_mb.
     */
    private void serve(ControllerHarness h) throws Exception {
        harness = h;
        var config = h.controller.state.config();
        var parameters = config.get(dev.gantry.common.config.Keys.SLURMCTLD_PARAMETERS);
        var guarded = java.util.Set.of("gantry.v1.Controller", "gantry.v1.Steps");
        RefusalMetrics refusals = new RefusalMetrics(h.registry);
        jobWatch = h.controller.jobWatch(FeedBudget.ofMegabytes(parameters.watch().bufferMb()), refusals::streamDropped);
        limits = new dev.gantry.scheduler.grpc.RequestLimits(guarded, parameters,
                config.get(dev.gantry.common.config.Keys.SLURM_USER), h.now::get, refusals);
        refusals.gaugeStreams(limits::openStreams, () -> jobWatch.budget().used());
        io.grpc.ServerInterceptor guard = limits.after(new Callers(authenticator, guarded));
        JobSteps jobSteps = h.controller.steps(h.jobStore.loadSteps());
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor()
                .addService(ServerInterceptors.intercept(new ControllerGrpcService(h.controller, h.controller.state, h.jobStore,
                        jobWatch, responses, tokens), guard))
                .addService(ServerInterceptors.intercept(new dev.gantry.scheduler.grpc.StepsGrpcService(jobSteps, config,
                        responses), guard))
                .build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        stub = ControllerGrpc.newBlockingStub(channel);
        steps = dev.gantry.api.v1.StepsGrpc.newBlockingStub(channel);
    }

    private void stop() {
        channel.shutdownNow();
        server.shutdownNow();
        harness.close(); // waits for the group commit to drain
    }

    @Override
    public void close() {
        stop();
        responses.shutdownNow();
    }
}
