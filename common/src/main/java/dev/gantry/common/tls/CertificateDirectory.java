package dev.gantry.common.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A cluster's certificates as files in one directory, the layout {@code gantry up} keeps in its state directory and
 * {@code gantry certs} writes for Kubernetes Secrets:
 * <pre>
 *   ca.crt  ca.key                      the cluster CA (ca.key 0600; it stays with whoever issues)
 *   services/scheduler-svc.crt  .key    one per service
 *   nodes/n1.crt  nodes/n1.key          one per node agent, named after its node
 * </pre>
 * The directory is owner-only (0700), every key 0600.
 */
public final class CertificateDirectory {

    private final Path dir;
    private final ClusterCa ca;

    private CertificateDirectory(Path dir, ClusterCa ca) {
        this.dir = dir;
        this.ca = ca;
    }

    /** The directory's CA, created first if missing. */
    public static CertificateDirectory open(Path dir, String clusterName, Instant now) throws IOException {
        return new CertificateDirectory(dir, ClusterCa.createIfMissing(dir, clusterName, now));
    }

    public Path caCertificate() {
        return dir.resolve(ClusterCa.CERT_FILE);
    }

    public ClusterCa ca() {
        return ca;
    }

    public Path certificate(Peer peer) {
        return folder(peer).resolve(peer.name() + ".crt");
    }

    public Path key(Peer peer) {
        return folder(peer).resolve(peer.name() + ".key");
    }

    /** Issues {@code peer} a new certificate and key (replacing any it had) and writes them. */
    public void issue(Peer peer, List<String> hostNames, Instant now, Duration validity) throws IOException {
        ca.issue(peer, hostNames, now, validity).write(certificate(peer), key(peer));
    }

    /** The files {@code peer} loads: the CA's certificate, its certificate and its key. */
    public ServiceTls load(Peer peer, Instant now) {
        return ServiceTls.load(caCertificate().toString(), certificate(peer).toString(), key(peer).toString(), peer, now);
    }

    private Path folder(Peer peer) {
        return dir.resolve(peer instanceof Peer.Node ? "nodes" : "services");
    }
}
