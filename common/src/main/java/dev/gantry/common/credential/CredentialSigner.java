package dev.gantry.common.credential;

import com.google.protobuf.ByteString;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.SignedCredential;
import java.security.KeyPair;

/** Signs launch credentials with the controller's Ed25519 private key. Thread-safe. */
public final class CredentialSigner {

    private final Ed25519.SigningKey key;
    private final String keyId;

    public CredentialSigner(KeyPair keys) {
        this.key = Ed25519.SigningKey.of(keys.getPrivate());
        this.keyId = CredentialKeys.keyId(keys.getPublic());
    }

    public String keyId() {
        return keyId;
    }

    /** Sets the credential's key_id to this signer's and signs its serialized bytes. */
    public SignedCredential sign(LaunchCredential credential) {
        byte[] body = credential.toBuilder().setKeyId(keyId).build().toByteArray();
        return SignedCredential.newBuilder()
                .setCredential(ByteString.copyFrom(body))
                .setSignature(ByteString.copyFrom(key.sign(body)))
                .build();
    }
}
