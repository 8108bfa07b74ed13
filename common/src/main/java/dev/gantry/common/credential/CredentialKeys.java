package dev.gantry.common.credential;

import dev.gantry.common.files.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The controller's Ed25519 key pair for launch credentials, as PEM files: the private key (PKCS#8) stays with
 * scheduler-svc, the public key (X.509 SubjectPublicKeyInfo) goes to every agent. On Kubernetes both come from a
 * Secret; on the local cluster {@code gantry up} creates them once, both mode 0600 (its agents run as the same
 * user; docs/security.md, "Local state").
 */
public final class CredentialKeys {

    private static final String ALGORITHM = "Ed25519";

    private CredentialKeys() {}

    /** A new random key pair. */
    public static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no Ed25519", e);
        }
    }

    /**
     * Creates the pair at the given paths unless the private key already exists; returns the pair on disk. Existing
     * files are left as they are (on Kubernetes they are a read-only Secret).
     */
    public static KeyPair createIfMissing(Path privateKeyFile, Path publicKeyFile) {
        if (Files.exists(privateKeyFile)) {
            return new KeyPair(readPublic(publicKeyFile), readPrivate(privateKeyFile));
        }
        KeyPair pair = generate();
        try {
            Files.createDirectories(privateKeyFile.toAbsolutePath().getParent());
            Files.createDirectories(publicKeyFile.toAbsolutePath().getParent());
            PrivateFiles.writeSecret(privateKeyFile, pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
            PrivateFiles.writeSecret(publicKeyFile, pem("PUBLIC KEY", pair.getPublic().getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write credential keys: " + e.getMessage(), e);
        }
        return pair;
    }

    public static PrivateKey readPrivate(Path file) {
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(unpem(file, "PRIVATE KEY")));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(file + ": not an Ed25519 private key: " + e.getMessage(), e);
        }
    }

    public static PublicKey readPublic(Path file) {
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(unpem(file, "PUBLIC KEY")));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(file + ": not an Ed25519 public key: " + e.getMessage(), e);
        }
    }

    /** A short stable name for a public key: the first 8 bytes of SHA-256 of its encoding, in hex. */
    public static String keyId(PublicKey key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static byte[] unpem(Path file, String type) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read key file " + file + ": " + e.getMessage(), e);
        }
        String begin = "-----BEGIN " + type + "-----";
        String end = "-----END " + type + "-----";
        int a = text.indexOf(begin);
        int b = text.indexOf(end);
        if (a < 0 || b < a) {
            throw new IllegalArgumentException(file + ": expected a PEM block '" + begin + "'");
        }
        return Base64.getMimeDecoder().decode(text.substring(a + begin.length(), b));
    }
}
