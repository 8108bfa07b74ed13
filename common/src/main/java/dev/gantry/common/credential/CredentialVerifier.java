package dev.gantry.common.credential;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.SignedCredential;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Checks a launch credential as slurmd checks Slurm's: signature, expiry, that this node is in it, that it
 * is for the job being launched and the script being run. Replay and revocation need the agent's memory
 * of what it launched and terminated, so the agent checks those itself. Thread-safe.
 */
public final class CredentialVerifier {

    private final Ed25519.VerifyingKey publicKey;
    private final String keyId;
    private final InstantSource clock;

    public CredentialVerifier(PublicKey publicKey, InstantSource clock) {
        this.publicKey = Ed25519.VerifyingKey.of(publicKey);
        this.keyId = CredentialKeys.keyId(publicKey);
        this.clock = clock;
    }

    /**
     * Returns the verified credential.
     *
     * @throws CredentialException saying which check failed
     */
    public LaunchCredential verify(SignedCredential signed, String node, long jobId, byte[] script) {
        if (!publicKey.verify(signed.getCredential().toByteArray(), signed.getSignature().toByteArray())) {
            throw new CredentialException("credential signature is invalid");
        }
        LaunchCredential cred;
        try {
            cred = LaunchCredential.parseFrom(signed.getCredential());
        } catch (InvalidProtocolBufferException e) {
            throw new CredentialException("credential is malformed");
        }
        if (!cred.getKeyId().equals(keyId)) {
            throw new CredentialException("credential was signed by key " + cred.getKeyId() + ", this node trusts " + keyId);
        }
        Instant now = clock.instant();
        Instant expires = Instant.ofEpochSecond(cred.getExpiresAt().getSeconds(), cred.getExpiresAt().getNanos());
        if (!now.isBefore(expires)) {
            throw new CredentialException("credential expired at " + expires);
        }
        if (cred.getJobId() != jobId) {
            throw new CredentialException("credential is for job " + cred.getJobId() + ", not job " + jobId);
        }
        if (!cred.getNodesList().contains(node)) {
            throw new CredentialException("credential does not name node " + node);
        }
        if (!MessageDigest.isEqual(sha256(script), cred.getScriptSha256().toByteArray())) {
            throw new CredentialException("script does not match the credential");
        }
        return cred;
    }

    /**
     * A job launch's credential: all of {@link #verify}, and that it covers exactly this request — the same digest
     * ({@link LaunchDigest}), this node's grant equal to the CPUs, memory and cores asked of it, and the same run.
     *
     * @throws CredentialException saying which check failed
     */
    public LaunchCredential verifyLaunch(SignedCredential signed, String node, LaunchJobRequest request) {
        LaunchCredential cred = verify(signed, node, request.getJobId(), request.getScript().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        if (!cred.getStepId().isEmpty()) {
            throw new CredentialException("credential is for step " + request.getJobId() + "." + cred.getStepId() + ", not for launching the job");
        }
        if (cred.getRequestSha256().isEmpty() || !MessageDigest.isEqual(LaunchDigest.of(request).toByteArray(), cred.getRequestSha256().toByteArray())) {
            throw new CredentialException("the launch request does not match its credential (script, environment, directory, "
                    + "output, limits or run changed)");
        }
        if (cred.getRun() != request.getRestartCount()) {
            throw new CredentialException("credential is for run " + cred.getRun() + ", not run " + request.getRestartCount());
        }
        var grant = LaunchDigest.grantOf(cred, node).orElseThrow(() -> new CredentialException("credential grants node " + node + " nothing"));
        if (grant.getCpus() != request.getCpusOnNode() || grant.getMemoryMb() != request.getMemoryMb()
                || !grant.getCoreIdsList().equals(request.getCoreIdsList())) {
            throw new CredentialException("node " + node + "'s resources do not match its credential");
        }
        return cred;
    }

    /** SHA-256 of a script, as credentials carry it. */
    public static ByteString scriptDigest(byte[] script) {
        return ByteString.copyFrom(sha256(script));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
