package dev.gantry.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.tls.Peer;
import dev.gantry.common.tls.ServiceTls;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry certs}: what an administrator runs to make the Kubernetes Secrets' files. */
class CertsCommandTest {

    @TempDir
    Path tmp;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new CommandLine(new CertsCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).execute(args);
    }

    @Test
    void fromAConfig_issuesEveryServiceAndNode_whichEachLoadsAsItself() throws Exception {
        Path conf = Files.writeString(tmp.resolve("gantry.conf"), """
                ClusterName=prod
                NodeName=worker-[1-2] CPUs=4 RealMemory=4096
                PartitionName=batch Nodes=ALL Default=YES State=UP
                """);
        Path dir = tmp.resolve("tls");

        assertEquals(0, run("--dir", dir.toString(), "--config", conf.toString(), "--host", "scheduler-svc.gantry.svc"), err.toString());

        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(dir));
        for (Peer p : List.of(Peer.SCHEDULER, Peer.SELECT, Peer.GANG, new Peer.Node("worker-1"), new Peer.Node("worker-2"))) {
            String folder = p instanceof Peer.Node ? "nodes" : "services";
            Path key = dir.resolve(folder).resolve(p.name() + ".key");
            assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(key), key.toString());
            ServiceTls tls = ServiceTls.load(dir.resolve("ca.crt").toString(), dir.resolve(folder).resolve(p.name() + ".crt").toString(),
                    key.toString(), p, Instant.now());
            X509Certificate cert = tls.certificate();
            assertTrue(cert.getSubjectAlternativeNames().stream().anyMatch(n -> n.get(1).equals("scheduler-svc.gantry.svc")));
        }
        assertTrue(out.toString().contains("Gantry cluster CA (prod)"), out.toString());
    }

    @Test
    void issuingAgain_keepsTheCa() throws Exception {
        Path dir = tmp.resolve("tls");
        assertEquals(0, run("--dir", dir.toString(), "node:n1"));
        String ca = Files.readString(dir.resolve("ca.crt"));
        String first = Files.readString(dir.resolve("nodes/n1.crt"));

        assertEquals(0, run("--dir", dir.toString(), "node:n1", "service:gang-svc"));

        assertEquals(ca, Files.readString(dir.resolve("ca.crt")));
        assertTrue(!first.equals(Files.readString(dir.resolve("nodes/n1.crt"))), "a new certificate");
        assertTrue(Files.exists(dir.resolve("services/gang-svc.key")));
    }

    @Test
    void aPeerThatIsNoPeer_isAUsageError() {
        assertEquals(2, run("--dir", tmp.resolve("tls").toString(), "n1"));

        assertEquals("gantry: certs: 'n1': expected service:NAME or node:NAME\n", err.toString());
    }
}
