package dev.gantry.common.tls;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts exactly the certificates the cluster CA issued to a peer {@code admitted} accepts: the chain must validate
 * under the CA alone (PKIX, no other root, no revocation lists: a compromised certificate is replaced by a new CA, see
 * docs/security.md), and its leaf must name a {@link Peer}. On the client side {@code admitted} is the peer the
 * client means to reach (scheduler-svc; the agent of node n3), which replaces host-name checking: agents' addresses
 * are pod IPs no certificate could list, and a certificate that names the peer is the stronger check. On the server
 * side it admits any peer, and the per-service rules ({@link PeerAdmission}) decide per call.
 *
 * <p>Being an {@link X509ExtendedTrustManager}, the JDK uses it as it is and adds no host-name check of its own.
 * Thread-safe.
 */
final class CaTrust extends X509ExtendedTrustManager {

    private final X509Certificate ca;
    private final PeerAdmission admitted;

    CaTrust(X509Certificate ca, PeerAdmission admitted) {
        this.ca = ca;
        this.admitted = admitted;
    }

    /** Validates {@code chain} (leaf first) under {@code ca} alone at {@code now}. */
    static void validate(X509Certificate ca, List<X509Certificate> chain, Instant now) throws GeneralSecurityException {
        List<X509Certificate> path = chain.stream().filter(c -> !c.equals(ca)).toList(); // the anchor is not part of the path
        if (path.isEmpty()) {
            throw new CertificateException("the CA's own certificate is not a service certificate");
        }
        PKIXParameters parameters;
        try {
            parameters = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
        } catch (InvalidAlgorithmParameterException e) {
            throw new CertificateException("the cluster CA certificate cannot anchor a path: " + e.getMessage(), e);
        }
        parameters.setRevocationEnabled(false);
        parameters.setDate(Date.from(now));
        try {
            CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509").generateCertPath(path), parameters);
        } catch (java.security.cert.CertPathValidatorException e) {
            throw new CertificateException(reason(e, path.get(0)), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no PKIX validator", e);
        }
    }

    private static String reason(java.security.cert.CertPathValidatorException e, X509Certificate leaf) {
        return switch (e.getReason()) {
            case java.security.cert.CertPathValidatorException.BasicReason.EXPIRED -> "certificate expired on " + leaf.getNotAfter().toInstant();
            case java.security.cert.CertPathValidatorException.BasicReason.NOT_YET_VALID -> "certificate not valid before " + leaf.getNotBefore().toInstant();
            case java.security.cert.PKIXReason.NO_TRUST_ANCHOR -> "not issued by the cluster CA (" + leaf.getIssuerX500Principal().getName() + ")";
            default -> e.getMessage();
        };
    }

    private Peer check(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("no certificate presented");
        }
        try {
            validate(ca, Arrays.asList(chain), Instant.now());
        } catch (CertificateException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new CertificateException(e.getMessage(), e);
        }
        Peer peer = Peer.of(chain[0]).orElseThrow(() -> new CertificateException("the certificate of "
                + chain[0].getSubjectX500Principal().getName() + " names no Gantry service or node"));
        if (!admitted.admits(peer)) {
            throw new CertificateException("the peer is " + peer + ", expected " + admitted.who());
        }
        return peer;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        check(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[] {ca};
    }
}
