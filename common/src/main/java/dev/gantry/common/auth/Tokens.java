package dev.gantry.common.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What Gantry's tokens say and whom a verified token names. Two kinds:
 * <ul>
 *   <li>a <b>local token</b> (EdDSA, key id {@link #LOCAL_KEY_ID}), issued by a node's local authenticator to a
 *       process whose uid the kernel reported (SO_PEERCRED): it carries {@code sun}, {@code uid}, {@code gid} and
 *       {@code groups}, which the verifier believes as the authenticator saw them;</li>
 *   <li>a <b>Slurm token</b> (HS256, auth/jwt): it names only the user ({@code sun}); uid and groups come from the
 *       verifying host's accounts, as slurmctld resolves them.</li>
 * </ul>
 * Pure; the account lookup comes in as a function.
 */
public final class Tokens {

    /** The key id of the local authenticators' signing key. */
    public static final String LOCAL_KEY_ID = "gantry-local";
    /** How long a local token lives: one command's calls, with room for a slow machine. */
    public static final Duration LOCAL_LIFETIME = Duration.ofMinutes(5);

    private Tokens() {}

    /** A local token's claims for {@code who}, issued by the authenticator of {@code node} at {@code now}. */
    public static Map<String, Object> localClaims(Identity who, String node, Instant now, String nonce) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("sun", who.user());
        c.put("uid", who.uid());
        c.put("gid", who.gid());
        c.put("groups", who.groups());
        c.put("iss", "gantry-local:" + node);
        c.put("iat", now.getEpochSecond());
        c.put("exp", now.plus(LOCAL_LIFETIME).getEpochSecond());
        c.put("jti", nonce);
        return c;
    }

    /** Slurm's token claims ({@code scontrol token}): the user, issued at {@code now}, for {@code lifespan}. */
    public static Map<String, Object> slurmClaims(String user, Instant now, Duration lifespan) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("exp", now.plus(lifespan).getEpochSecond());
        c.put("iat", now.getEpochSecond());
        c.put("sun", user);
        return c;
    }

    /** Whom a verified token names; refuses one whose user the host does not know (or whose claims disagree). */
    public static Identity identity(Jwt.Claims claims, Function<String, Optional<Account>> accounts) throws TokenException {
        String user = claims.string("sun").or(() -> claims.string("username"))
                .orElseThrow(() -> new TokenException("token names no user (sun)"));
        if (claims.algorithm().equals("EdDSA") && claims.keyId().equals(LOCAL_KEY_ID)) {
            long uid = claims.number("uid").orElseThrow(() -> new TokenException("local token without uid"));
            long gid = claims.number("gid").orElseThrow(() -> new TokenException("local token without gid"));
            try {
                return new Identity(user, uid, gid, claims.numbers("groups"), "local");
            } catch (IllegalArgumentException e) {
                throw new TokenException("local token: " + e.getMessage());
            }
        }
        Account account = accounts.apply(user)
                .orElseThrow(() -> new TokenException("token user " + user + " is not a user of this host"));
        return new Identity(account.name(), account.uid(), account.gid(), account.groups(), "jwt");
    }

    /** A host account as token verification needs it. */
    public record Account(String name, long uid, long gid, List<Long> groups) {}
}
