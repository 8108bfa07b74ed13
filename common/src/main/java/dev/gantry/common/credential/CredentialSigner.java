package dev.gantry.common.credential;

import com.google.protobuf.ByteString;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.SignedCredential;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;

/** Signs launch credentials with the controller's Ed25519 private key. Thread-safe. */
public final class CredentialSigner {

    private final KeyPair keys;
    private final String keyId;

    public CredentialSigner(KeyPair keys) {
        this.keys = keys;
        this.keyId = CredentialKeys.keyId(keys.getPublic());
    }

    public String keyId() {
        return keyId;
    }

    /** Sets the credential's key_id to this signer's and signs its serialized bytes. */
    public SignedCredential sign(LaunchCredential credential) {
        byte[] body = credential.toBuilder().setKeyId(keyId).build().toByteArray();
        try {
            Signature ed = Signature.getInstance("Ed25519");
            ed.initSign(keys.getPrivate());
            ed.update(body);
            return SignedCredential.newBuilder()
                    .setCredential(ByteString.copyFrom(body))
                    .setSignature(ByteString.copyFrom(ed.sign()))
                    .build();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }
}
