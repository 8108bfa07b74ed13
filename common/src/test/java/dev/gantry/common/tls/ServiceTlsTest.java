package dev.gantry.common.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A service checks its own TLS files at start and says which variable is wrong. */
class ServiceTlsTest {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    @TempDir
    Path tmp;
    private CertificateDirectory certs;

    @BeforeEach
    void issue() throws Exception {
        certs = CertificateDirectory.open(tmp.resolve("tls"), "test", NOW);
        certs.issue(new Peer.Node("n1"), List.of(), NOW, Duration.ofDays(10));
        certs.issue(Peer.GANG, List.of(), NOW, Duration.ofDays(10));
    }

    @Test
    void load_acceptsTheAgentsOwnCertificate() {
        ServiceTls tls = certs.load(new Peer.Node("n1"), NOW);

        assertEquals(new Peer.Node("n1"), tls.self());
        assertEquals(certs.ca().certificate(), tls.ca());
    }

    @Test
    void load_refusesACertificateNamingAnotherPeer() {
        String message = refusal(certs.caCertificate(), certs.certificate(new Peer.Node("n1")), certs.key(new Peer.Node("n1")),
                new Peer.Node("n2"), NOW);

        assertEquals("GANTRY_TLS_CERT=" + certs.certificate(new Peer.Node("n1")) + ": names node n1, but this is node n2", message);
    }

    @Test
    void load_refusesAKeyOfAnotherCertificate() {
        String message = refusal(certs.caCertificate(), certs.certificate(Peer.GANG), certs.key(new Peer.Node("n1")), Peer.GANG, NOW);

        assertEquals("GANTRY_TLS_KEY=" + certs.key(new Peer.Node("n1")) + ": not the key of GANTRY_TLS_CERT="
                + certs.certificate(Peer.GANG), message);
    }

    @Test
    void load_refusesACertificateOfAnotherCa_andAnExpiredOne() throws Exception {
        CertificateDirectory other = CertificateDirectory.open(tmp.resolve("other"), "other", NOW);
        other.issue(Peer.GANG, List.of(), NOW, Duration.ofDays(10));

        String foreign = refusal(certs.caCertificate(), other.certificate(Peer.GANG), other.key(Peer.GANG), Peer.GANG, NOW);
        String expired = refusal(certs.caCertificate(), certs.certificate(Peer.GANG), certs.key(Peer.GANG), Peer.GANG,
                NOW.plus(Duration.ofDays(11)));

        assertEquals("GANTRY_TLS_CERT=" + other.certificate(Peer.GANG) + ": not valid under GANTRY_TLS_CA=" + certs.caCertificate()
                + ": not issued by the cluster CA (CN=Gantry cluster CA (other),O=Gantry)", foreign);
        assertEquals(true, expired.contains(": certificate expired on "), expired);
    }

    @Test
    void load_namesAMissingVariable_andAMissingFile() {
        TlsConfigurationException unset = assertThrows(TlsConfigurationException.class,
                () -> ServiceTls.load(certs.caCertificate().toString(), "", "x", Peer.GANG, NOW));
        String missing = refusal(tmp.resolve("nope.crt"), certs.certificate(Peer.GANG), certs.key(Peer.GANG), Peer.GANG, NOW);

        assertEquals("GANTRY_TLS_CERT is not set: the internal API uses mutual TLS and needs this service's certificate (PEM; "
                + "docs/security.md, \"Service identity\")", unset.getMessage());
        assertEquals("GANTRY_TLS_CA=" + tmp.resolve("nope.crt") + ": No such file or directory", missing);
    }

    @Test
    void load_refusesAKeyFileThatHoldsNoKey() throws Exception {
        Path garbage = Files.writeString(tmp.resolve("garbage.key"), "not a key\n");

        String message = refusal(certs.caCertificate(), certs.certificate(Peer.GANG), garbage, Peer.GANG, NOW);

        assertEquals(true, message.startsWith("GANTRY_TLS_KEY=" + garbage + ": "), message);
    }

    private static String refusal(Path ca, Path cert, Path key, Peer expected, Instant now) {
        return assertThrows(TlsConfigurationException.class,
                () -> ServiceTls.load(ca.toString(), cert.toString(), key.toString(), expected, now)).getMessage();
    }
}
