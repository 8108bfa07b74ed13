package dev.gantry.scheduler.grpc;

import dev.gantry.common.authn.CallerAuthenticator;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.SlurmctldParameters;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import io.grpc.ServerInterceptor;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every call of the client API (Controller, Steps) carries an authenticated caller (docs/security.md); health and
 * reflection stay open. The accepted credentials come from the config (AuthType, AuthAltTypes, AuthAltParameters) and
 * the local authenticators' public key (GANTRY_AUTH_PUBLIC_KEY).
 */
@Factory
class CallerAuthenticationFactory {

    private static final Logger LOG = LoggerFactory.getLogger(CallerAuthenticationFactory.class);
    /** The services whose every call needs an authenticated caller. */
    static final Set<String> GUARDED = Set.of("gantry.v1.Controller", "gantry.v1.Steps");

    @Singleton
    CallerAuthenticator authenticator(SchedulerRuntime runtime, @Value("${gantry.config}") String configFile,
            @Value("${gantry.auth.public-key:}") String localPublicKey) {
        ClusterConfig config = runtime.state().config();
        Path configDir = Path.of(configFile).toAbsolutePath().getParent();
        CallerAuthenticator.Settings settings = CallerAuthenticator.Settings.of(config,
                localPublicKey.isBlank() ? Optional.empty() : Optional.of(Path.of(localPublicKey)), configDir);
        if (!settings.local() && !settings.munge() && !settings.jwt()) {
            throw new IllegalStateException("AuthType=" + config.get(Keys.AUTH_TYPE) + " needs the local authenticators' "
                    + "public key (GANTRY_AUTH_PUBLIC_KEY), and no other credential is accepted: nobody could call this controller");
        }
        LOG.info("callers authenticate with {}{}{}", settings.local() ? "local tokens " : "", settings.munge() ? "MUNGE " : "",
                settings.jwt() ? "JSON web tokens (auth/jwt)" : "");
        return new CallerAuthenticator(settings, InstantSource.system());
    }

    /**
     * Authentication, then the request limits (rate, streams; docs/security.md "Limits"), as one interceptor so their
     * order never depends on the server's.
     */
    @Singleton
    ServerInterceptor callers(CallerAuthenticator authenticator, SchedulerRuntime runtime) {
        ClusterConfig config = runtime.state().config();
        SlurmctldParameters parameters = config.get(Keys.SLURMCTLD_PARAMETERS);
        RequestLimits limits = new RequestLimits(GUARDED, parameters, config.get(Keys.SLURM_USER), InstantSource.system(),
                runtime.refusals());
        runtime.refusals().gaugeStreams(limits::openStreams, () -> runtime.jobWatch().budget().used());
        LOG.info("client API limits: {}; watch streams at most {} per user, {} in all, {} MiB of backlog",
                parameters.rateLimit().enabled() ? "rate " + parameters.rateLimit().describe() : "no rate limit",
                parameters.watch().perUser(), parameters.watch().total(), runtime.jobWatch().budget().capacity() >> 20);
        return limits.after(new Callers(authenticator, GUARDED));
    }
}
