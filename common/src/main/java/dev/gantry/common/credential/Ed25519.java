package dev.gantry.common.credential;

import java.io.IOException;
import java.security.PrivateKey;
import java.security.PublicKey;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;

/**
 * Ed25519 (RFC 8032) signing and verification through Bouncy Castle's implementation, for the JDK keys the
 * credential files hold. Signatures are the same bytes the JDK's provider makes (Ed25519 is deterministic), so
 * either side can be swapped; Bouncy Castle's fixed-base tables and cached public point make a signature about
 * 15 times and a verification about 10 times cheaper (docs/benchmarks.md, "Trivial jobs"), which matters on the
 * controller thread (one signature per launch) and on every agent launch. Immutable and thread-safe.
 */
public final class Ed25519 {

    private Ed25519() {}

    /** A private key, decoded once. */
    public record SigningKey(Ed25519PrivateKeyParameters key) {
        public static SigningKey of(PrivateKey key) {
            return new SigningKey(decode(() -> PrivateKeyFactory.createKey(key.getEncoded()), Ed25519PrivateKeyParameters.class, key.getAlgorithm()));
        }

        public byte[] sign(byte[] message) {
            Ed25519Signer signer = new Ed25519Signer();
            signer.init(true, key);
            signer.update(message, 0, message.length);
            return signer.generateSignature();
        }
    }

    /** A public key, decoded once (its curve point too). */
    public record VerifyingKey(Ed25519PublicKeyParameters key) {
        public static VerifyingKey of(PublicKey key) {
            return new VerifyingKey(decode(() -> PublicKeyFactory.createKey(key.getEncoded()), Ed25519PublicKeyParameters.class, key.getAlgorithm()));
        }

        /** Whether {@code signature} is this key's over {@code message}; false for a malformed signature. */
        public boolean verify(byte[] message, byte[] signature) {
            if (signature.length != Ed25519PrivateKeyParameters.SIGNATURE_SIZE) {
                return false;
            }
            Ed25519Signer verifier = new Ed25519Signer();
            verifier.init(false, key);
            verifier.update(message, 0, message.length);
            return verifier.verifySignature(signature);
        }
    }

    private interface Decoder {
        AsymmetricKeyParameter decode() throws IOException;
    }

    private static <K> K decode(Decoder decoder, Class<K> type, String algorithm) {
        try {
            AsymmetricKeyParameter key = decoder.decode();
            if (type.isInstance(key)) {
                return type.cast(key);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not an Ed25519 key (" + algorithm + "): " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("not an Ed25519 key: " + algorithm);
    }
}
