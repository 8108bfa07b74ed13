package dev.gantry.common.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * One process's side of mutual TLS: the cluster CA it trusts, and its own certificate and key, which name the
 * {@link Peer} it is. Loaded once at start from GANTRY_TLS_CA, GANTRY_TLS_CERT and GANTRY_TLS_KEY and checked there, so
 * a wrong file stops the service with a message naming the variable instead of failing every handshake later.
 * Certificates are not reloaded: a renewed Secret takes effect when the pod restarts.
 *
 * @param chain the process's certificate first, then any intermediates its file holds
 */
public record ServiceTls(X509Certificate ca, List<X509Certificate> chain, PrivateKey key, Peer self) {

    public static final String CA_VARIABLE = "GANTRY_TLS_CA";
    public static final String CERT_VARIABLE = "GANTRY_TLS_CERT";
    public static final String KEY_VARIABLE = "GANTRY_TLS_KEY";

    public ServiceTls {
        chain = List.copyOf(chain);
    }

    public X509Certificate certificate() {
        return chain.get(0);
    }

    /**
     * Loads and checks the files the variables name: each is set and readable, the certificate was issued by the CA,
     * is valid at {@code now}, names a peer, and the key is its key; and the peer is {@code expected} (a node agent's
     * certificate must name its own node).
     *
     * @throws TlsConfigurationException naming the variable and the file
     */
    public static ServiceTls load(String caFile, String certFile, String keyFile, Peer expected, Instant now) {
        Path ca = file(CA_VARIABLE, caFile, "the cluster CA's certificate");
        Path cert = file(CERT_VARIABLE, certFile, "this " + kind(expected) + "'s certificate");
        Path key = file(KEY_VARIABLE, keyFile, "this " + kind(expected) + "'s private key");
        X509Certificate caCert;
        List<X509Certificate> chain;
        PrivateKey privateKey;
        try {
            caCert = PemFiles.readCertificates(ca).get(0);
        } catch (IOException e) {
            throw new TlsConfigurationException(CA_VARIABLE + "=" + ca + ": " + why(e), e);
        }
        try {
            chain = PemFiles.readCertificates(cert);
        } catch (IOException e) {
            throw new TlsConfigurationException(CERT_VARIABLE + "=" + cert + ": " + why(e), e);
        }
        try {
            privateKey = PemFiles.readPrivateKey(key);
        } catch (IOException e) {
            throw new TlsConfigurationException(KEY_VARIABLE + "=" + key + ": " + why(e), e);
        }
        X509Certificate leaf = chain.get(0);
        Peer self = Peer.of(leaf).orElseThrow(() -> new TlsConfigurationException(CERT_VARIABLE + "=" + cert
                + ": names no Gantry service or node (expected a URI subject alternative name " + expected.uri() + ")"));
        if (!self.equals(expected)) {
            throw new TlsConfigurationException(CERT_VARIABLE + "=" + cert + ": names " + self + ", but this is " + expected);
        }
        try {
            CaTrust.validate(caCert, chain, now);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigurationException(CERT_VARIABLE + "=" + cert + ": not valid under " + CA_VARIABLE + "=" + ca + ": "
                    + e.getMessage(), e);
        }
        if (!ClusterCa.Keys.match(privateKey, leaf.getPublicKey())) {
            throw new TlsConfigurationException(KEY_VARIABLE + "=" + key + ": not the key of " + CERT_VARIABLE + "=" + cert);
        }
        return new ServiceTls(caCert, chain, privateKey, self);
    }

    private static Path file(String variable, String value, String what) {
        if (value == null || value.isBlank()) {
            throw new TlsConfigurationException(variable + " is not set: the internal API uses mutual TLS and needs " + what
                    + " (PEM; docs/security.md, \"Service identity\")");
        }
        Path p = Path.of(value.trim());
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            String why = !Files.exists(p) ? "No such file or directory" : Files.isDirectory(p) ? "Is a directory" : "Permission denied";
            throw new TlsConfigurationException(variable + "=" + p + ": " + why);
        }
        return p;
    }

    private static String kind(Peer p) {
        return p instanceof Peer.Node ? "agent" : "service";
    }

    private static String why(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        String m = e.getMessage();
        int colon = m == null ? -1 : m.indexOf(": ");
        return colon >= 0 ? m.substring(colon + 2) : String.valueOf(m);
    }
}
