package dev.gantry.common.credential;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.LaunchCredential;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialKeysTest {

    @TempDir
    Path dir;

    @Test
    void createIfMissing_writesPemFilesOnlyTheOwnerCanRead() throws Exception {
        Path priv = dir.resolve("keys/credential.key");
        Path pub = dir.resolve("public/credential.pub");

        CredentialKeys.createIfMissing(priv, pub);

        String privText = Files.readString(priv);
        String pubText = Files.readString(pub);
        assertTrue(privText.startsWith("-----BEGIN PRIVATE KEY-----\n"), privText);
        assertTrue(privText.endsWith("-----END PRIVATE KEY-----\n"), privText);
        assertTrue(pubText.startsWith("-----BEGIN PUBLIC KEY-----\n"), pubText);
        assertTrue(pubText.endsWith("-----END PUBLIC KEY-----\n"), pubText);
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(priv));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(pub));
        try (var left = Files.list(priv.getParent())) {
            assertEquals(Set.of(priv), Set.copyOf(left.toList()), "no temporary files are left behind");
        }
    }

    @Test
    void createIfMissing_readsTheSamePairTheSecondTime() {
        Path priv = dir.resolve("credential.key");
        Path pub = dir.resolve("credential.pub");

        KeyPair first = CredentialKeys.createIfMissing(priv, pub);
        KeyPair second = CredentialKeys.createIfMissing(priv, pub);

        assertArrayEquals(first.getPrivate().getEncoded(), second.getPrivate().getEncoded());
        assertArrayEquals(first.getPublic().getEncoded(), second.getPublic().getEncoded());
        assertEquals(CredentialKeys.keyId(first.getPublic()), CredentialKeys.keyId(second.getPublic()));
    }

    @Test
    void keysReadFromDisk_signAndVerifyLikeTheOriginals() {
        Path priv = dir.resolve("credential.key");
        Path pub = dir.resolve("credential.pub");
        KeyPair created = CredentialKeys.createIfMissing(priv, pub);
        Instant now = Instant.parse("2026-11-22T10:00:00Z");
        LaunchCredential cred = LaunchCredential.newBuilder()
                .setJobId(1)
                .addNodes("n1")
                .setExpiresAt(Timestamp.newBuilder().setSeconds(now.getEpochSecond() + 60))
                .setScriptSha256(CredentialVerifier.scriptDigest(new byte[] {1}))
                .build();

        var signed = new CredentialSigner(new KeyPair(created.getPublic(), CredentialKeys.readPrivate(priv))).sign(cred);
        var verifier = new CredentialVerifier(CredentialKeys.readPublic(pub), InstantSource.fixed(now));

        assertEquals(1, verifier.verify(signed, "n1", 1, new byte[] {1}).getJobId());
    }

    @Test
    void keyId_isSixteenHexDigitsAndDiffersBetweenPairs() {
        String a = CredentialKeys.keyId(CredentialKeys.generate().getPublic());
        String b = CredentialKeys.keyId(CredentialKeys.generate().getPublic());

        assertTrue(a.matches("[0-9a-f]{16}"), a);
        assertNotEquals(a, b);
    }

    @Test
    void readingAFileWithoutThePemBlock_failsNamingTheFile() throws Exception {
        Path notPem = Files.writeString(dir.resolve("junk.pub"), "hello\n");
        Path privAsPub = dir.resolve("credential.key");
        CredentialKeys.createIfMissing(privAsPub, dir.resolve("credential.pub"));

        IllegalArgumentException junk = assertThrows(IllegalArgumentException.class, () -> CredentialKeys.readPublic(notPem));
        assertTrue(junk.getMessage().contains("junk.pub"), junk.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CredentialKeys.readPublic(privAsPub));
    }
}
