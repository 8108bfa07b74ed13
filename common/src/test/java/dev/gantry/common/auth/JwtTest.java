package dev.gantry.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.Ed25519;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JwtTest {

    static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    static final byte[] HS_KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    final KeyPair local = CredentialKeys.generate();
    final Jwt.Keys keys = new Jwt.Keys(Optional.of(HS_KEY), Map.of(Tokens.LOCAL_KEY_ID, Ed25519.VerifyingKey.of(local.getPublic())));

    @Test
    void slurmsHs256Token_verifies_andNamesItsUser() throws TokenException {
        String token = Jwt.signHs256(Tokens.slurmClaims("alice", NOW, java.time.Duration.ofHours(1)), HS_KEY);

        Jwt.Claims claims = Jwt.verify(token, keys, NOW.plusSeconds(60));

        assertEquals(Optional.of("alice"), claims.string("sun"));
        assertEquals("HS256", claims.algorithm());
    }

    /** A token made as Slurm 22.05's `scontrol token` makes one (header and claims in its order), with a known key. */
    @Test
    void aTokenOfSlurmsLayout_verifies() throws TokenException {
        String header = b64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
        String body = b64("{\"exp\":" + NOW.plusSeconds(1800).getEpochSecond() + ",\"iat\":" + NOW.getEpochSecond() + ",\"sun\":\"bob\"}");
        String token = header + "." + body + "." + hmac(header + "." + body);

        assertEquals(Optional.of("bob"), Jwt.verify(token, keys, NOW).string("sun"));
    }

    @Test
    void localEdDsaToken_verifiesWithTheAuthenticatorsPublicKey() throws TokenException {
        Identity who = new Identity("alice", 1001, 1001, List.of(1001L, 27L), "local");
        String token = Jwt.signEd25519(Tokens.localClaims(who, "n1", NOW, "nonce"), Tokens.LOCAL_KEY_ID,
                Ed25519.SigningKey.of(local.getPrivate()));

        Identity back = Tokens.identity(Jwt.verify(token, keys, NOW), user -> Optional.empty());

        assertEquals(who, back);
    }

    @Test
    void tamperedExpiredFutureAndUnsignedTokens_areRefused() {
        String good = Jwt.signHs256(Tokens.slurmClaims("alice", NOW, java.time.Duration.ofMinutes(10)), HS_KEY);
        String[] p = good.split("\\.");
        String asRoot = p[0] + "." + b64(new String(Base64.getUrlDecoder().decode(p[1])).replace("alice", "root")) + "." + p[2];
        String none = b64("{\"alg\":\"none\"}") + "." + p[1] + ".";
        String otherKey = Jwt.signHs256(Tokens.slurmClaims("alice", NOW, java.time.Duration.ofMinutes(10)),
                "another key another key another k".getBytes(StandardCharsets.US_ASCII));

        assertRefused(asRoot, NOW, "signature");
        assertRefused(none, NOW, "none");
        assertRefused(otherKey, NOW, "signature");
        assertRefused(good, NOW.plusSeconds(600 + 61), "expired");
        assertRefused(Jwt.signHs256(Tokens.slurmClaims("alice", NOW.plusSeconds(3600), java.time.Duration.ofHours(1)), HS_KEY),
                NOW, "not valid before");
        assertRefused(Jwt.signHs256(Map.of("sun", "alice"), HS_KEY), NOW, "no expiry");
        assertRefused("not.a.token", NOW, "malformed");
        assertRefused("two.parts", NOW, "3 dot-separated");
    }

    @Test
    void anHs256TokenIsRefused_whereNoHs256KeyIsConfigured() {
        String token = Jwt.signHs256(Tokens.slurmClaims("alice", NOW, java.time.Duration.ofHours(1)), HS_KEY);
        Jwt.Keys localOnly = new Jwt.Keys(Optional.empty(), keys.ed25519());

        TokenException e = assertThrows(TokenException.class, () -> Jwt.verify(token, localOnly, NOW));
        assertTrue(e.getMessage().contains("signature"), e.getMessage());
    }

    @Test
    void aSlurmTokensUser_isResolvedOnThisHost_andAnUnknownUserIsRefused() throws TokenException {
        Jwt.Claims claims = Jwt.verify(Jwt.signHs256(Tokens.slurmClaims("carol", NOW, java.time.Duration.ofHours(1)), HS_KEY), keys, NOW);

        Identity carol = Tokens.identity(claims, u -> Optional.of(new Tokens.Account(u, 2002, 100, List.of(100L))));
        assertEquals(new Identity("carol", 2002, 100, List.of(100L), "jwt"), carol);
        assertThrows(TokenException.class, () -> Tokens.identity(claims, u -> Optional.empty()));
    }

    @Test
    void aLocalTokenIsNotTakenForAnotherKeysToken() {
        // a local token's claims signed with the HS256 key: its uid claim is not believed, the user is looked up
        Identity who = new Identity("alice", 0, 0, List.of(), "local");
        String forged = Jwt.signHs256(Tokens.localClaims(who, "n1", NOW, "x"), HS_KEY);
        assertThrows(TokenException.class, () -> Tokens.identity(Jwt.verify(forged, keys, NOW), u -> Optional.empty()));
    }

    private void assertRefused(String token, Instant at, String why) {
        TokenException e = assertThrows(TokenException.class, () -> Jwt.verify(token, keys, at));
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String hmac(String input) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(HS_KEY, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
