package dev.gantry.common.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterCaTest {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    @TempDir
    Path tmp;

    @Test
    void createIfMissing_keepsTheCaOwnerOnly_andLoadsTheSameCaAfterwards() throws Exception {
        Path dir = tmp.resolve("state/tls");

        ClusterCa first = ClusterCa.createIfMissing(dir, "test", NOW);
        ClusterCa again = ClusterCa.createIfMissing(dir, "test", NOW.plusSeconds(60));

        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(dir));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(dir.resolve("ca.key")));
        assertEquals(PosixFilePermissions.fromString("rw-r--r--"), Files.getPosixFilePermissions(dir.resolve("ca.crt")));
        assertTrue(Files.readString(dir.resolve("ca.key")).startsWith("-----BEGIN PRIVATE KEY-----\n"));
        assertEquals(first.certificate(), again.certificate());
        assertEquals(0, first.certificate().getBasicConstraints(), "a CA that issues leaves only");
        assertTrue(first.certificate().getSubjectX500Principal().getName().contains("Gantry cluster CA (test)"));
    }

    @Test
    void issue_namesThePeerInCnAndUri_forServersAndClients_andIsNoCa() throws Exception {
        ClusterCa ca = ClusterCa.create("test", NOW);

        X509Certificate cert = ca.issue(new Peer.Node("n7"), List.of("node7.example", "10.0.0.7"), NOW, Duration.ofDays(30))
                .certificate();

        assertEquals(Optional.of(new Peer.Node("n7")), Peer.of(cert));
        assertTrue(cert.getSubjectX500Principal().getName().startsWith("CN=n7"), cert.getSubjectX500Principal().getName());
        assertEquals(-1, cert.getBasicConstraints());
        assertEquals(List.of("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"), cert.getExtendedKeyUsage());
        List<String> sans = cert.getSubjectAlternativeNames().stream().map(n -> n.get(0) + "=" + n.get(1)).toList();
        assertEquals(List.of("6=urn:gantry:node:n7", "2=node7.example", "7=10.0.0.7"), sans);
        CaTrust.validate(ca.certificate(), List.of(cert), NOW.plus(Duration.ofDays(29)));
    }

    @Test
    void issue_neverOutlivesTheCa() {
        ClusterCa ca = ClusterCa.create("test", NOW);

        X509Certificate cert = ca.issue(Peer.SCHEDULER, List.of(), NOW, Duration.ofDays(100_000)).certificate();

        assertEquals(ca.certificate().getNotAfter(), cert.getNotAfter());
    }

    @Test
    void validate_refusesAnotherCasCertificate_andAnExpiredOne() {
        ClusterCa ca = ClusterCa.create("test", NOW);
        ClusterCa other = ClusterCa.create("other", NOW);
        X509Certificate foreign = other.issue(Peer.SCHEDULER, List.of(), NOW, Duration.ofDays(1)).certificate();
        X509Certificate shortLived = ca.issue(Peer.SCHEDULER, List.of(), NOW, Duration.ofDays(1)).certificate();

        Exception e = assertThrows(Exception.class, () -> CaTrust.validate(ca.certificate(), List.of(foreign), NOW));
        assertTrue(e.getMessage().startsWith("not issued by the cluster CA"), e.getMessage());
        e = assertThrows(Exception.class, () -> CaTrust.validate(ca.certificate(), List.of(shortLived), NOW.plus(Duration.ofDays(2))));
        assertTrue(e.getMessage().startsWith("certificate expired on "), e.getMessage());
    }

    @Test
    void load_refusesAKeyThatIsNotTheCertificates() throws Exception {
        ClusterCa ca = ClusterCa.create("test", NOW);
        ClusterCa other = ClusterCa.create("other", NOW);
        ca.write(tmp.resolve("ca.crt"), tmp.resolve("ca.key"));
        other.write(tmp.resolve("other.crt"), tmp.resolve("other.key"));

        Exception e = assertThrows(java.io.IOException.class, () -> ClusterCa.load(tmp.resolve("ca.crt"), tmp.resolve("other.key")));

        assertTrue(e.getMessage().contains("not the key of the CA certificate"), e.getMessage());
        assertFalse(ClusterCa.load(tmp.resolve("ca.crt"), tmp.resolve("ca.key")).certificate().equals(other.certificate()));
    }
}
