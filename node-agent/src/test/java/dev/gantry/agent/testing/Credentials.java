package dev.gantry.agent.testing;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.NodeGrant;
import dev.gantry.common.credential.LaunchDigest;
import dev.gantry.api.v1.SignedCredential;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.common.credential.CredentialVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/** Builds signed launch credentials: {@code aCredential(signer).job(7).nodes("n1").script(s).sign()}. */
public final class Credentials {
    private final CredentialSigner signer;
    private long jobId = 1;
    private String user = "alice";
    /** The test's own uid and gid by default: jobs then run as the agent's user, as root or not. */
    private int uid = OWN_UID;
    private int gid = OWN_GID;
    private List<String> nodes = List.of("n1");
    private Instant issuedAt = Instant.now();
    private Instant expiresAt = Instant.now().plusSeconds(3600);
    private String script = "";
    private String stepId = "";
    private byte[] stepCommand;
    private LaunchJobRequest covered;

    public static final int OWN_UID = idOf("unix:uid");
    public static final int OWN_GID = idOf("unix:gid");

    private static int idOf(String attribute) {
        try {
            return (Integer) java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), attribute);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Credentials(CredentialSigner signer) {
        this.signer = signer;
    }

    public static Credentials aCredential(CredentialSigner signer) {
        return new Credentials(signer);
    }

    public Credentials job(long id) {
        this.jobId = id;
        return this;
    }

    public Credentials user(String name, int uid, int gid) {
        this.user = name;
        this.uid = uid;
        this.gid = gid;
        return this;
    }

    public Credentials nodes(String... names) {
        this.nodes = List.of(names);
        return this;
    }

    public Credentials expiresAt(Instant t) {
        this.expiresAt = t;
        return this;
    }

    /** A step credential (srun): step {@code id} running {@code argv}. */
    public Credentials step(String id, List<String> argv) {
        this.stepId = id;
        this.stepCommand = dev.gantry.agent.job.StepCommand.digestInput(argv);
        return this;
    }

    public Credentials script(String text) {
        this.script = text;
        return this;
    }

    /**
     * A launch credential covering {@code request} as the controller signs one: its script, digest, run, and a grant per
     * node (this request's CPUs, memory and cores for the credential's first node and for any node it does not forward
     * to; each forwarding target's own otherwise).
     */
    public Credentials covering(LaunchJobRequest request) {
        this.covered = request;
        this.script = request.getScript();
        return this;
    }

    public SignedCredential sign() {
        return signer.sign(LaunchCredential.newBuilder()
                .setJobId(jobId)
                .setUser(user)
                .setUid(uid)
                .setGid(gid)
                .addAllNodes(nodes)
                .setIssuedAt(ts(issuedAt))
                .setExpiresAt(ts(expiresAt))
                .setScriptSha256(CredentialVerifier.scriptDigest(stepCommand != null ? stepCommand : script.getBytes(StandardCharsets.UTF_8)))
                .setStepId(stepId)
                .mergeFrom(coverage())
                .build());
    }

    private LaunchCredential coverage() {
        if (covered == null) {
            return LaunchCredential.getDefaultInstance();
        }
        LaunchCredential.Builder c = LaunchCredential.newBuilder().setRequestSha256(LaunchDigest.of(covered)).setRun(covered.getRestartCount());
        for (String node : nodes) {
            var target = covered.getForwardToList().stream().filter(t -> t.getNode().equals(node)).findFirst();
            c.addGrants(target.isPresent()
                    ? NodeGrant.newBuilder().setNode(node).setCpus(target.get().getCpusOnNode()).setMemoryMb(target.get().getMemoryMb())
                            .addAllCoreIds(target.get().getCoreIdsList())
                    : NodeGrant.newBuilder().setNode(node).setCpus(covered.getCpusOnNode()).setMemoryMb(covered.getMemoryMb())
                            .addAllCoreIds(covered.getCoreIdsList()));
        }
        return c.build();
    }

    private static Timestamp ts(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
