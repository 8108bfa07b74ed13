package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/gantry up refuses to start, saying why, when the config is broken or a configured port is taken. */
class LauncherRefusalE2ETest {

    @TempDir
    Path tmp;

    private Shell.Result up(Path conf) throws Exception {
        Path home = Path.of(System.getProperty("gantry.home", "..")).toAbsolutePath().normalize();
        return new Shell(home, Map.of()).run(tmp, "gantry", "up", "--config", conf.toString(), "--run-dir",
                tmp.resolve("run").toString());
    }

    @Test
    void aConfigErrorStopsUp_withFileLineKeyAndWhatIsWrong() throws Exception {
        Path conf = tmp.resolve("broken.conf");
        Files.writeString(conf, """
                NodeName=n[1-2] CPUs=2 RealMemory=1024
                # a typo on line 3:
                PartitionName=debug Nodes=n[1-3] Default=YES MaxTime=bogus
                """);
        Shell.Result r = up(conf);
        assertNotEquals(0, r.exit(), r.toString());
        assertTrue(r.err().contains(conf + ":3: Nodes: unknown node n3"), r.err());
        assertTrue(r.err().contains(conf + ":3: MaxTime: Invalid time specification 'bogus'"), r.err());
        assertFalse(Files.exists(tmp.resolve("run/cluster.properties")), "nothing was started");
    }

    @Test
    void aTakenPortStopsUp_namingThePortAndItsKey() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path conf = tmp.resolve("port.conf");
            Files.writeString(conf, "SlurmctldPort=" + taken.getLocalPort() + "\nNodeName=n1 CPUs=1\n"
                    + "PartitionName=debug Nodes=n1 Default=YES\n");
            Shell.Result r = up(conf);
            assertEquals(1, r.exit(), r.toString());
            assertTrue(r.err().contains("port " + taken.getLocalPort() + " (SlurmctldPort) is already in use"), r.err());
            assertFalse(Files.exists(tmp.resolve("run/cluster.properties")), "nothing was started");
        }
    }
}
