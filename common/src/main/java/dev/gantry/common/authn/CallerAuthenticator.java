package dev.gantry.common.authn;

import dev.gantry.common.auth.Identity;
import dev.gantry.common.auth.Jwt;
import dev.gantry.common.auth.TokenException;
import dev.gantry.common.auth.Tokens;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.Ed25519;
import dev.gantry.common.posix.PosixAccounts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Establishes who calls from the credential a call carries in its {@code authorization} header — never from what the
 * request says. Accepted, as configured:
 * <ul>
 *   <li>{@code Bearer <local token>}: a node's local authenticator signed it for the uid the kernel reported on its
 *       Unix socket (AuthType=auth/local, Gantry's default; the authenticators' public key is configured);</li>
 *   <li>{@code Munge <credential>}: the site's munged vouches for the uid (AuthType=auth/munge);</li>
 *   <li>{@code Bearer <JSON web token>}: HS256 with the cluster's key, as Slurm's auth/jwt (AuthAltTypes=auth/jwt,
 *       AuthAltParameters=jwt_key=…); the user it names is looked up on this host.</li>
 * </ul>
 * A verified token is remembered until it expires (at most {@link #REMEMBER} later, {@link #CAPACITY} of them), so a
 * client that makes many calls with one token pays for one verification. A MUNGE credential is decoded on every use,
 * so munged refuses a replayed one, as in Slurm. Thread-safe.
 */
public final class CallerAuthenticator {

    /** The longest a verified credential is remembered. */
    public static final java.time.Duration REMEMBER = java.time.Duration.ofMinutes(5);
    static final int CAPACITY = 10_000;

    /**
     * What is accepted.
     *
     * @param local accept local tokens (their key is in {@code keys} under {@link Tokens#LOCAL_KEY_ID})
     * @param munge accept MUNGE credentials, through {@code mungeSocket} (empty: munged's default socket)
     * @param jwt   accept HS256 tokens (their key is {@code keys.hs256()})
     */
    public record Settings(boolean local, boolean munge, Optional<String> mungeSocket, boolean jwt, Jwt.Keys keys) {

        /**
         * The cluster's settings (AuthType, AuthInfo, AuthAltTypes, AuthAltParameters), with the local authenticators'
         * public key file ({@code GANTRY_AUTH_PUBLIC_KEY}); {@code configDir} resolves a relative jwt_key.
         */
        public static Settings of(ClusterConfig config, Optional<Path> localPublicKey, Path configDir) {
            boolean munge = config.get(Keys.AUTH_TYPE).equals("auth/munge");
            boolean local = !munge && localPublicKey.isPresent();
            Optional<String> socket = option(config.get(Keys.AUTH_INFO), "socket");
            boolean jwt = config.get(Keys.AUTH_ALT_TYPES).contains("auth/jwt");
            Optional<byte[]> hs256 = Optional.empty();
            if (jwt) {
                Path key = configDir.resolve(option(config.get(Keys.AUTH_ALT_PARAMETERS), "jwt_key").orElseThrow(() ->
                        new IllegalArgumentException("AuthAltTypes=auth/jwt needs AuthAltParameters=jwt_key=PATH (the HS256 key file)")));
                try {
                    hs256 = Optional.of(Files.readAllBytes(key));
                } catch (IOException e) {
                    throw new UncheckedIOException("jwt_key " + key + ": " + e.getMessage(), e);
                }
                if (hs256.get().length < 32) {
                    throw new IllegalArgumentException("jwt_key " + key + " holds " + hs256.get().length
                            + " bytes; an HS256 key needs at least 32");
                }
            }
            Map<String, Ed25519.VerifyingKey> ed = local
                    ? Map.of(Tokens.LOCAL_KEY_ID, Ed25519.VerifyingKey.of(CredentialKeys.readPublic(localPublicKey.get())))
                    : Map.of();
            return new Settings(local, munge, socket, jwt, new Jwt.Keys(hs256, ed));
        }

        private static Optional<String> option(List<String> options, String name) {
            return options.stream().filter(o -> o.startsWith(name + "=")).map(o -> o.substring(name.length() + 1)).findFirst();
        }

        /** The methods accepted, for messages: "local token", "MUNGE", "JSON web token". */
        List<String> methods() {
            List<String> out = new ArrayList<>();
            if (local) {
                out.add("a local token (run the command on a node whose local authenticator you can reach, GANTRY_AUTH_SOCKET)");
            }
            if (munge) {
                out.add("a MUNGE credential");
            }
            if (jwt) {
                out.add("a JSON web token (scontrol token; SLURM_JWT)");
            }
            return out;
        }
    }

    private record Remembered(Identity identity, Instant until) {}

    private final Settings settings;
    private final InstantSource clock;
    private final Munge munge;
    private final ConcurrentHashMap<String, Remembered> remembered = new ConcurrentHashMap<>();

    public CallerAuthenticator(Settings settings, InstantSource clock) {
        this.settings = settings;
        this.clock = clock;
        this.munge = settings.munge() ? new Munge(settings.mungeSocket()) : null;
    }

    public Settings settings() {
        return settings;
    }

    /** The caller that {@code authorization} (the header's value, null when absent) proves. */
    public Identity authenticate(String authorization) throws AuthenticationException {
        if (settings.methods().isEmpty()) {
            throw new AuthenticationException("no caller can be authenticated here: no local authenticator key, MUNGE or JWT "
                    + "key is configured");
        }
        if (authorization == null || authorization.isBlank()) {
            throw new AuthenticationException("no credential; this cluster accepts " + String.join(", or ", settings.methods()));
        }
        Instant now = clock.instant();
        if (authorization.startsWith("Munge ")) {
            // never remembered: munged refuses a credential decoded before (replay), and must see every use of one
            return munge(authorization.substring(6).trim(), now).identity();
        }
        Remembered known = remembered.get(authorization);
        if (known != null && now.isBefore(known.until())) {
            return known.identity();
        }
        Remembered fresh;
        if (authorization.startsWith("Bearer ")) {
            fresh = token(authorization.substring(7).trim(), now);
        } else {
            throw new AuthenticationException("unknown credential kind '" + authorization.split(" ", 2)[0]
                    + "' (Bearer or Munge)");
        }
        if (remembered.size() >= CAPACITY) {
            remembered.values().removeIf(r -> !now.isBefore(r.until()));
            if (remembered.size() >= CAPACITY) {
                remembered.clear();
            }
        }
        remembered.put(authorization, fresh);
        return fresh.identity();
    }

    private Remembered token(String token, Instant now) throws AuthenticationException {
        if (!settings.local() && !settings.jwt()) {
            throw new AuthenticationException("tokens are not accepted here; this cluster accepts " + String.join(", or ", settings.methods()));
        }
        try {
            Jwt.Claims claims = Jwt.verify(token, settings.keys(), now);
            Identity who = Tokens.identity(claims, CallerAuthenticator::account);
            Instant until = Instant.ofEpochSecond(claims.number("exp").orElseThrow());
            return new Remembered(who, min(until, now.plus(REMEMBER)));
        } catch (TokenException e) {
            throw new AuthenticationException(e.getMessage());
        }
    }

    private Remembered munge(String credential, Instant now) throws AuthenticationException {
        if (munge == null) {
            throw new AuthenticationException("MUNGE is not used here (AuthType); this cluster accepts " + String.join(", or ", settings.methods()));
        }
        Munge.Decoded decoded = munge.decode(credential);
        PosixAccounts.Account account = PosixAccounts.byUid(decoded.uid()).orElseThrow(() ->
                new AuthenticationException("uid " + decoded.uid() + " is not a user of this host"));
        Identity who = new Identity(account.name(), decoded.uid(), decoded.gid(), account.groups(), "munge");
        return new Remembered(who, now.plus(REMEMBER));
    }

    private static Optional<Tokens.Account> account(String name) {
        return PosixAccounts.byName(name).map(a -> new Tokens.Account(a.name(), a.uid(), a.gid(), a.groups()));
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
