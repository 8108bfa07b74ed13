package dev.gantry.common.credential;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Bouncy Castle's Ed25519 against the JDK's: the same signatures, each verifies the other's, and forgeries fail. */
class Ed25519Test {

    private static final byte[] MESSAGE = "job 7 on n1,n2 for alice".getBytes(StandardCharsets.UTF_8);

    @Test
    void signatures_areTheBytesTheJdkMakes_andVerifyEitherWay() throws Exception {
        KeyPair keys = CredentialKeys.generate();
        Signature jdk = Signature.getInstance("Ed25519");
        jdk.initSign(keys.getPrivate());
        jdk.update(MESSAGE);
        byte[] jdkSignature = jdk.sign();

        byte[] ours = Ed25519.SigningKey.of(keys.getPrivate()).sign(MESSAGE);

        assertArrayEquals(jdkSignature, ours, "Ed25519 is deterministic");
        assertTrue(Ed25519.VerifyingKey.of(keys.getPublic()).verify(MESSAGE, jdkSignature));
        Signature check = Signature.getInstance("Ed25519");
        check.initVerify(keys.getPublic());
        check.update(MESSAGE);
        assertTrue(check.verify(ours));
    }

    @Test
    void aTamperedMessage_aTamperedOrTruncatedSignature_orAnotherKey_failVerification() {
        KeyPair keys = CredentialKeys.generate();
        byte[] signature = Ed25519.SigningKey.of(keys.getPrivate()).sign(MESSAGE);
        Ed25519.VerifyingKey verifier = Ed25519.VerifyingKey.of(keys.getPublic());

        byte[] otherMessage = MESSAGE.clone();
        otherMessage[0] ^= 1;
        assertFalse(verifier.verify(otherMessage, signature));
        byte[] flipped = signature.clone();
        flipped[40] ^= 1;
        assertFalse(verifier.verify(MESSAGE, flipped));
        assertFalse(verifier.verify(MESSAGE, Arrays.copyOf(signature, 63)));
        assertFalse(verifier.verify(MESSAGE, new byte[0]));
        assertFalse(Ed25519.VerifyingKey.of(CredentialKeys.generate().getPublic()).verify(MESSAGE, signature));
    }

    @Test
    void aKeyOfAnotherAlgorithm_isRefusedNamingIt() throws Exception {
        KeyPair ec = KeyPairGenerator.getInstance("EC").generateKeyPair();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ed25519.VerifyingKey.of(ec.getPublic()));
        assertTrue(e.getMessage().startsWith("not an Ed25519 key"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Ed25519.SigningKey.of(ec.getPrivate()));
    }
}
