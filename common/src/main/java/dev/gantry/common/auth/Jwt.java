package dev.gantry.common.auth;

import dev.gantry.common.credential.Ed25519;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * JSON Web Tokens (RFC 7519) as Gantry accepts them: HS256 with a shared key, as Slurm's auth/jwt signs them
 * (https://slurm.schedmd.com/jwt.html: claims {@code sun} — the user name — {@code iat} and {@code exp}), and EdDSA
 * (Ed25519, RFC 8037) for the tokens a node's local authenticator issues. A token must carry {@code exp}; {@code iat}
 * and {@code nbf}, when present, may not lie in the future beyond {@link #LEEWAY}; {@code alg: none} and algorithms
 * without a configured key are refused. Pure: the time comes in; thread-safe.
 */
public final class Jwt {

    /** Clock skew tolerated between the token's issuer and the verifier. */
    public static final Duration LEEWAY = Duration.ofSeconds(60);

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder UNB64 = Base64.getUrlDecoder();

    private Jwt() {}

    /** A verified token's claims. */
    public record Claims(Map<String, Object> values, String algorithm, String keyId) {

        public Claims {
            values = Map.copyOf(values);
        }

        public Optional<String> string(String name) {
            return values.get(name) instanceof String s ? Optional.of(s) : Optional.empty();
        }

        public Optional<Long> number(String name) {
            return values.get(name) instanceof Long n ? Optional.of(n) : Optional.empty();
        }

        /** An array of integers (e.g. supplementary groups); empty when absent. */
        public List<Long> numbers(String name) {
            if (values.get(name) instanceof List<?> list) {
                return list.stream().filter(Long.class::isInstance).map(Long.class::cast).toList();
            }
            return List.of();
        }
    }

    /** The keys a verifier trusts: Slurm's HS256 key (jwt_hs256.key), Ed25519 public keys by key id. */
    public record Keys(Optional<byte[]> hs256, Map<String, Ed25519.VerifyingKey> ed25519) {
        public Keys {
            ed25519 = Map.copyOf(ed25519);
        }

        public static final Keys NONE = new Keys(Optional.empty(), Map.of());
    }

    /** An HS256 token over {@code claims}, as Slurm's {@code scontrol token} makes them. */
    public static String signHs256(Map<String, ?> claims, byte[] key) {
        String signingInput = part(header("HS256", null)) + "." + part(Json.write(claims));
        return signingInput + "." + B64.encodeToString(hmac(key, signingInput));
    }

    /** An EdDSA (Ed25519) token over {@code claims}, naming its key {@code keyId}. */
    public static String signEd25519(Map<String, ?> claims, String keyId, Ed25519.SigningKey key) {
        String signingInput = part(header("EdDSA", keyId)) + "." + part(Json.write(claims));
        return signingInput + "." + B64.encodeToString(key.sign(signingInput.getBytes(StandardCharsets.US_ASCII)));
    }

    /** The claims of {@code token} if one of {@code keys} signed it and it is valid at {@code now}. */
    public static Claims verify(String token, Keys keys, Instant now) throws TokenException {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            throw new TokenException("not a JSON web token (3 dot-separated parts expected)");
        }
        Map<String, Object> header;
        Map<String, Object> claims;
        byte[] signature;
        try {
            header = Json.read(new String(UNB64.decode(parts[0]), StandardCharsets.UTF_8));
            claims = Json.read(new String(UNB64.decode(parts[1]), StandardCharsets.UTF_8));
            signature = UNB64.decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new TokenException("malformed token: " + e.getMessage());
        }
        String alg = header.get("alg") instanceof String a ? a : "";
        String kid = header.get("kid") instanceof String k ? k : "";
        byte[] signingInput = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII);
        boolean good = switch (alg) {
            case "HS256" -> keys.hs256().isPresent()
                    && MessageDigest.isEqual(hmac(keys.hs256().get(), parts[0] + "." + parts[1]), signature);
            case "EdDSA" -> keys.ed25519().containsKey(kid) && keys.ed25519().get(kid).verify(signingInput, signature);
            default -> throw new TokenException("token algorithm '" + alg + "' is not accepted (HS256 or EdDSA)");
        };
        if (!good) {
            throw new TokenException("token signature does not verify with any key this server trusts");
        }
        Claims c = new Claims(claims, alg, kid);
        long exp = c.number("exp").orElseThrow(() -> new TokenException("token has no expiry (exp)"));
        if (now.getEpochSecond() >= exp + LEEWAY.toSeconds()) {
            throw new TokenException("token expired at " + Instant.ofEpochSecond(exp));
        }
        for (String early : List.of("iat", "nbf")) {
            Optional<Long> t = c.number(early);
            if (t.isPresent() && t.get() > now.getEpochSecond() + LEEWAY.toSeconds()) {
                throw new TokenException("token is not valid before " + Instant.ofEpochSecond(t.get()) + " (" + early + ")");
            }
        }
        return c;
    }

    private static String header(String alg, String kid) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("alg", alg);
        h.put("typ", "JWT");
        if (kid != null) {
            h.put("kid", kid);
        }
        return Json.write(h);
    }

    private static String part(String json) {
        return B64.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hmac(byte[] key, String input) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(input.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
