package dev.gantry.common.credential;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.NodeGrant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * What a launch credential covers of its request, so an agent runs exactly what the controller decided: the SHA-256 of
 * the request with what differs from node to node cleared (the credential itself, the forwarding list, this node's
 * CPUs, memory and cores — those the credential's {@link NodeGrant}s carry per node), serialized deterministically (map
 * entries in key order). One implementation for the controller that signs and the agents that check. Thread-safe.
 */
public final class LaunchDigest {
    private LaunchDigest() {}

    /** The digest of {@code request} as its credential must carry it. */
    public static ByteString of(LaunchJobRequest request) {
        LaunchJobRequest common = request.toBuilder().clearCredential().clearForwardTo().clearCpusOnNode().clearMemoryMb()
                .clearCoreIds().build();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(common.getSerializedSize());
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.useDeterministicSerialization();
            common.writeTo(out);
            out.flush();
            return ByteString.copyFrom(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The credential's grant for {@code node}, if it has one. */
    public static Optional<NodeGrant> grantOf(LaunchCredential credential, String node) {
        return credential.getGrantsList().stream().filter(g -> g.getNode().equals(node)).findFirst();
    }
}
