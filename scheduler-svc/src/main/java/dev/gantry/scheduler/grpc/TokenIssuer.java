package dev.gantry.scheduler.grpc;

import dev.gantry.common.auth.Jwt;
import dev.gantry.common.auth.Tokens;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Issues Slurm-style JSON web tokens ({@code scontrol token}): HS256 with the cluster's auth/jwt key, claims sun, iat,
 * exp. Without AuthAltTypes=auth/jwt there is no key and nothing to issue. Thread-safe.
 */
public record TokenIssuer(Optional<byte[]> key, InstantSource clock) {

    /** Slurm's default lifespan (scontrol token). */
    public static final Duration DEFAULT_LIFESPAN = Duration.ofSeconds(1800);
    /** The longest lifespan Gantry issues. */
    public static final Duration MAX_LIFESPAN = Duration.ofDays(365);

    public static final TokenIssuer NONE = new TokenIssuer(Optional.empty(), InstantSource.system());

    /** A token for {@code user}, valid {@code lifespan} from now. */
    public Issued issue(String user, Duration lifespan) {
        Instant now = clock.instant();
        String token = Jwt.signHs256(Tokens.slurmClaims(user, now, lifespan), key.orElseThrow(() ->
                new IllegalStateException("no auth/jwt key")));
        return new Issued(token, now.plus(lifespan));
    }

    public record Issued(String token, Instant expires) {}
}
