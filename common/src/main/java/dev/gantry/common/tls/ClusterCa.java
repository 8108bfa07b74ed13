package dev.gantry.common.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The cluster's certificate authority: the one issuer every service trusts for service identity. It signs one
 * certificate per service (scheduler-svc, select-svc, gang-svc) and one per node agent, each naming its {@link Peer}.
 * Keys are ECDSA P-256 (fast TLS 1.3 handshakes; what cert-manager and openssl issue by default for EC).
 *
 * <p>On the local cluster {@code gantry up} creates it once in the state directory ({@link #createIfMissing}); on
 * Kubernetes {@code gantry certs} (or cert-manager, or openssl) makes it and the certificates for a Secret
 * (docs/security.md, "Service identity"). Not thread-safe for concurrent issuing into the same files; issuing itself is.
 */
public final class ClusterCa {

    /** The CA's certificate and key file names in its directory. */
    public static final String CERT_FILE = "ca.crt";
    public static final String KEY_FILE = "ca.key";
    public static final Duration CA_VALIDITY = Duration.ofDays(3650);
    public static final Duration DEFAULT_VALIDITY = Duration.ofDays(365);
    /** Certificates start this long before they are issued, for clocks a little behind the issuer's. */
    private static final Duration BACKDATE = Duration.ofMinutes(5);
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final X509Certificate certificate;
    private final PrivateKey key;

    private ClusterCa(X509Certificate certificate, PrivateKey key) {
        this.certificate = certificate;
        this.key = key;
    }

    /** A new CA, "Gantry cluster CA (NAME)", valid for {@link #CA_VALIDITY} from {@code now}. */
    public static ClusterCa create(String clusterName, Instant now) {
        KeyPair pair = newKeyPair();
        X500Name name = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "Gantry")
                .addRDN(BCStyle.CN, "Gantry cluster CA (" + clusterName + ")").build();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minus(BACKDATE)),
                    Date.from(now.plus(CA_VALIDITY)), name, pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            return new ClusterCa(sign(b, pair.getPrivate()), pair.getPrivate());
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot create a CA certificate: " + e.getMessage(), e);
        }
    }

    /** The CA whose certificate and key are in these files. */
    public static ClusterCa load(Path certificateFile, Path keyFile) throws IOException {
        X509Certificate cert = PemFiles.readCertificates(certificateFile).get(0);
        PrivateKey key = PemFiles.readPrivateKey(keyFile);
        if (cert.getBasicConstraints() < 0) {
            throw new IOException(certificateFile + ": not a CA certificate (no basicConstraints CA:TRUE)");
        }
        if (!Keys.match(key, cert.getPublicKey())) {
            throw new IOException(keyFile + ": not the key of the CA certificate " + certificateFile);
        }
        return new ClusterCa(cert, key);
    }

    /**
     * The CA in {@code dir} ({@value #CERT_FILE}, {@value #KEY_FILE}), created there first if missing. The directory
     * is made owner-only (0700) and the key file is 0600.
     */
    public static ClusterCa createIfMissing(Path dir, String clusterName, Instant now) throws IOException {
        Files.createDirectories(dir);
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException notPosix) {
            // nothing more to restrict
        }
        Path cert = dir.resolve(CERT_FILE);
        Path key = dir.resolve(KEY_FILE);
        if (Files.exists(key) && Files.exists(cert)) {
            return load(cert, key);
        }
        ClusterCa ca = create(clusterName, now);
        ca.write(cert, key);
        return ca;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** Writes the certificate (0644) and the key (0600). */
    public void write(Path certificateFile, Path keyFile) throws IOException {
        PemFiles.writePrivateKey(keyFile, key);
        PemFiles.writeCertificates(certificateFile, List.of(certificate));
    }

    /**
     * A certificate for {@code peer} with a new key: CN and URI name the peer; {@code hostNames} (DNS names or IP
     * addresses) are added as subject alternative names for tools that check host names (Gantry's services check the
     * peer instead, see {@link CaTrust}); usable by TLS servers and clients alike.
     */
    public IssuedCertificate issue(Peer peer, List<String> hostNames, Instant now, Duration validity) {
        KeyPair pair = newKeyPair();
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "Gantry").addRDN(BCStyle.CN, peer.name()).build();
        List<GeneralName> names = new ArrayList<>();
        names.add(new GeneralName(GeneralName.uniformResourceIdentifier, peer.uri()));
        Set<String> hosts = new LinkedHashSet<>(hostNames);
        for (String host : hosts) {
            names.add(isIpAddress(host) ? new GeneralName(GeneralName.iPAddress, host) : new GeneralName(GeneralName.dNSName, host));
        }
        Instant notAfter = now.plus(validity);
        if (notAfter.isAfter(certificate.getNotAfter().toInstant())) {
            notAfter = certificate.getNotAfter().toInstant(); // never outlive the issuer
        }
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate, serial(), Date.from(now.minus(BACKDATE)),
                    Date.from(notAfter), subject, pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            return new IssuedCertificate(sign(b, key), pair.getPrivate(), certificate);
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot issue a certificate for " + peer + ": " + e.getMessage(), e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer) throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e.getMessage(), e);
        }
    }

    static KeyPair newKeyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no EC P-256", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).setBit(126); // positive, 16 bytes, never zero
    }

    private static boolean isIpAddress(String host) {
        if (host.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            return true;
        }
        if (host.contains(":") && host.matches("[0-9A-Fa-f:.]+")) {
            try {
                InetAddress.getByName(host); // a literal: no lookup
                return true;
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }
        return false;
    }

    /** A certificate the CA issued, with its private key. */
    public record IssuedCertificate(X509Certificate certificate, PrivateKey key, X509Certificate issuer) {

        /** Writes the certificate (0644) and its key (0600). */
        public void write(Path certificateFile, Path keyFile) throws IOException {
            PemFiles.writePrivateKey(keyFile, key);
            PemFiles.writeCertificates(certificateFile, List.of(certificate));
        }
    }

    /** Key checks. */
    static final class Keys {
        private Keys() {}

        /** Whether {@code key} is the private half of {@code publicKey}: it signs something {@code publicKey} verifies. */
        static boolean match(PrivateKey key, PublicKey publicKey) {
            try {
                String algorithm = switch (publicKey.getAlgorithm()) {
                    case "EC" -> "SHA256withECDSA";
                    case "RSA" -> "SHA256withRSA";
                    default -> publicKey.getAlgorithm(); // Ed25519, Ed448
                };
                byte[] challenge = new byte[32];
                RANDOM.nextBytes(challenge);
                java.security.Signature s = java.security.Signature.getInstance(algorithm);
                s.initSign(key);
                s.update(challenge);
                byte[] signature = s.sign();
                java.security.Signature v = java.security.Signature.getInstance(algorithm);
                v.initVerify(publicKey);
                v.update(challenge);
                return v.verify(signature);
            } catch (GeneralSecurityException e) {
                return false;
            }
        }
    }
}
