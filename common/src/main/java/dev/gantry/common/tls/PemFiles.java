package dev.gantry.common.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Certificates and private keys as PEM files, the form openssl, cert-manager and Kubernetes Secrets use. Keys are
 * read in PKCS#8 ({@code PRIVATE KEY}) or SEC 1 / PKCS#1 ({@code EC PRIVATE KEY}, {@code RSA PRIVATE KEY}) and written
 * in PKCS#8, owner-only (0600) from the moment the file exists. Files are replaced atomically.
 */
public final class PemFiles {

    private PemFiles() {}

    /** Every certificate in the file, in order. */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        try {
            List<X509Certificate> certificates = new ArrayList<>();
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
                certificates.add((X509Certificate) c);
            }
            if (certificates.isEmpty()) {
                throw new IOException(file + ": no PEM certificate in it");
            }
            return certificates;
        } catch (CertificateException e) {
            throw new IOException(file + ": not a PEM certificate: " + e.getMessage(), e);
        }
    }

    /** The private key in the file. */
    public static PrivateKey readPrivateKey(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        try (Reader reader = new StringReader(text); PEMParser parser = new PEMParser(reader)) {
            Object o = parser.readObject();
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            if (o instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            }
            if (o instanceof PEMKeyPair pair) {
                return converter.getKeyPair(pair).getPrivate();
            }
            throw new IOException(file + ": expected an unencrypted PEM private key (BEGIN PRIVATE KEY or BEGIN EC PRIVATE KEY)");
        } catch (IOException | RuntimeException e) {
            if (e instanceof IOException io && io.getMessage() != null && io.getMessage().startsWith(file.toString())) {
                throw io;
            }
            throw new IOException(file + ": not a PEM private key: " + e.getMessage(), e);
        }
    }

    /** Writes the certificates, readable by all (a certificate is public). */
    public static void writeCertificates(Path file, List<X509Certificate> certificates) throws IOException {
        StringBuilder text = new StringBuilder();
        for (X509Certificate c : certificates) {
            try {
                text.append(pem("CERTIFICATE", c.getEncoded()));
            } catch (java.security.cert.CertificateEncodingException e) {
                throw new IOException("cannot encode a certificate: " + e.getMessage(), e);
            }
        }
        write(file, text.toString(), "rw-r--r--");
    }

    /** Writes the key in PKCS#8, owner-only (0600) before a byte of it is written. */
    public static void writePrivateKey(Path file, PrivateKey key) throws IOException {
        write(file, pem("PRIVATE KEY", key.getEncoded()), "rw-------");
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static void write(Path file, String content, String mode) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp); // left by a crash, perhaps with wider permissions
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(tmp);
        }
        Files.writeString(tmp, content, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
