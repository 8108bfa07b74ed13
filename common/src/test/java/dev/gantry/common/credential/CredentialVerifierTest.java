package dev.gantry.common.credential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.SignedCredential;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A launch credential passes only if every check holds, and a failure names the check. */
class CredentialVerifierTest {

    private static final KeyPair CONTROLLER = CredentialKeys.generate();
    private static final KeyPair STRANGER = CredentialKeys.generate();
    private static final Instant ISSUED = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant EXPIRES = ISSUED.plusSeconds(300);
    private static final byte[] SCRIPT = "#!/bin/sh\nsrun hostname\n".getBytes(StandardCharsets.UTF_8);
    private static final long JOB = 42;

    private static LaunchCredential credential() {
        return LaunchCredential.newBuilder()
                .setJobId(JOB)
                .setUser("alice")
                .setUid(1000)
                .setGid(1000)
                .addAllNodes(List.of("n1", "n2"))
                .setIssuedAt(timestamp(ISSUED))
                .setExpiresAt(timestamp(EXPIRES))
                .setScriptSha256(CredentialVerifier.scriptDigest(SCRIPT))
                .build();
    }

    private static Timestamp timestamp(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }

    private static CredentialVerifier verifierAt(Instant now) {
        return new CredentialVerifier(CONTROLLER.getPublic(), InstantSource.fixed(now));
    }

    private static final SignedCredential SIGNED = new CredentialSigner(CONTROLLER).sign(credential());

    @Test
    void signThenVerify_returnsTheCredentialWithTheSignersKeyId() {
        LaunchCredential verified = verifierAt(ISSUED).verify(SIGNED, "n2", JOB, SCRIPT);

        assertEquals(credential().toBuilder().setKeyId(CredentialKeys.keyId(CONTROLLER.getPublic())).build(), verified);
        assertEquals(new CredentialSigner(CONTROLLER).keyId(), verified.getKeyId());
    }

    @Test
    void verify_acceptsUntilJustBeforeExpiry() {
        verifierAt(EXPIRES.minusNanos(1)).verify(SIGNED, "n1", JOB, SCRIPT);
    }

    static Stream<Arguments> failedChecks() {
        return Stream.of(
                refused("tampered body", "signature is invalid", ISSUED,
                        s -> s.toBuilder().setCredential(flipLastByte(s.getCredential())).build(), "n1", JOB, SCRIPT),
                refused("body replaced by another job's", "signature is invalid", ISSUED,
                        s -> s.toBuilder().setCredential(credential().toBuilder().setJobId(7).build().toByteString()).build(),
                        "n1", 7, SCRIPT),
                refused("tampered signature", "signature is invalid", ISSUED,
                        s -> s.toBuilder().setSignature(flipLastByte(s.getSignature())).build(), "n1", JOB, SCRIPT),
                refused("truncated signature", "signature is invalid", ISSUED,
                        s -> s.toBuilder().setSignature(s.getSignature().substring(0, 10)).build(), "n1", JOB, SCRIPT),
                refused("no signature", "signature is invalid", ISSUED,
                        s -> s.toBuilder().clearSignature().build(), "n1", JOB, SCRIPT),
                refused("signed by another key pair", "signature is invalid", ISSUED,
                        s -> new CredentialSigner(STRANGER).sign(credential()), "n1", JOB, SCRIPT),
                refused("expired exactly now", "expired", EXPIRES, s -> s, "n1", JOB, SCRIPT),
                refused("expired long ago", "expired", EXPIRES.plusSeconds(3600), s -> s, "n1", JOB, SCRIPT),
                refused("no expiry given", "expired", ISSUED,
                        s -> new CredentialSigner(CONTROLLER).sign(credential().toBuilder().clearExpiresAt().build()),
                        "n1", JOB, SCRIPT),
                refused("node not in the allocation", "node n3", ISSUED, s -> s, "n3", JOB, SCRIPT),
                refused("another job", "not job 43", ISSUED, s -> s, "n1", 43, SCRIPT),
                refused("another script", "script", ISSUED, s -> s, "n1", JOB,
                        "#!/bin/sh\nrm -rf ~\n".getBytes(StandardCharsets.UTF_8)));
    }

    private static Arguments refused(String name, String check, Instant now, UnaryOperator<SignedCredential> change,
            String node, long jobId, byte[] script) {
        return Arguments.of(name, check, now, change, node, jobId, script);
    }

    @ParameterizedTest(name = "{0}: refused, naming \"{1}\"")
    @MethodSource("failedChecks")
    void verify_refusesWithTheFailedCheckNamed(String name, String check, Instant now,
            UnaryOperator<SignedCredential> change, String node, long jobId, byte[] script) {
        SignedCredential presented = change.apply(SIGNED);

        CredentialException e = assertThrows(CredentialException.class,
                () -> verifierAt(now).verify(presented, node, jobId, script));
        assertTrue(e.getMessage().contains(check), () -> "message '" + e.getMessage() + "' should name " + check);
    }

    @Test
    void scriptDigest_isSha256() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                HexFormat.of().formatHex(CredentialVerifier.scriptDigest(new byte[0]).toByteArray()));
    }

    private static ByteString flipLastByte(ByteString bytes) {
        byte[] b = bytes.toByteArray();
        b[b.length - 1] ^= 0x01;
        return ByteString.copyFrom(b);
    }
}
