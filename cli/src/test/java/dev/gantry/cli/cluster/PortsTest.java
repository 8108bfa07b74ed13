package dev.gantry.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void picksDistinctFreePorts_belowTheEphemeralRange() throws IOException {
        int low = Ports.ephemeralLow();
        Ports ports = new Ports(low);
        Set<Integer> picked = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            int port = ports.pick();
            assertTrue(port >= Ports.LOWEST && port < low, port + " is outside [" + Ports.LOWEST + ", " + low + ")");
            assertTrue(picked.add(port), "picked twice: " + port);
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(port, s.getLocalPort()); // and it is free
            }
        }
    }

    @Test
    void withoutRoomBelowTheRange_picksWhatTheKernelGives() throws IOException {
        Ports ports = new Ports(Ports.LOWEST + 10);
        int port = ports.pick();
        assertTrue(port > 0);
        assertTrue(port != ports.pick(), "two picks differ");
    }

    @Test
    void aConfiguredPortInUse_isAnErrorNamingTheKey() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            IOException e = assertThrows(IOException.class,
                    () -> new Ports().require(taken.getLocalPort(), "SlurmctldPort"));
            assertEquals("port " + taken.getLocalPort() + " (SlurmctldPort) is already in use", e.getMessage());
        }
    }

    @Test
    void twoPickersAtOnce_neverPickTheSamePort_beforeEitherBindsIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        // a narrow range, so that two pickers without reservations would meet
        int low = Ports.LOWEST + 1000;
        Ports first = new Ports(low, dir);
        Ports second = new Ports(low, dir);
        Set<Integer> picked = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            assertTrue(picked.add(first.pick()), "a port picked twice");
            assertTrue(picked.add(second.pick()), "a port picked twice");
        }
        assertEquals(600, picked.size());
    }

    @Test
    void anOldReservationIsTakenOver(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
        int low = Ports.LOWEST + 1000;
        for (int p = Ports.LOWEST; p < low; p++) { // every port reserved, all but one long ago
            java.nio.file.Path f = java.nio.file.Files.createFile(dir.resolve(Integer.toString(p)));
            java.nio.file.Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.from(
                    java.time.Instant.now().minus(Ports.HELD).minusSeconds(p == Ports.LOWEST + 7 ? -60 : 60)));
        }
        int port = new Ports(low, dir).pick();
        assertTrue(port >= Ports.LOWEST && port < low && port != Ports.LOWEST + 7, "picked " + port);
    }

    @Test
    void anotherUsersReservationDirectoryIsNotUsed(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to chown");
        java.nio.file.Path theirs = java.nio.file.Files.createDirectory(dir.resolve("gantry-ports-0"));
        int low = Ports.LOWEST + 1000;
        for (int p = Ports.LOWEST; p < low; p++) { // every port "reserved" by someone else, just now
            java.nio.file.Files.createFile(theirs.resolve(Integer.toString(p)));
        }
        java.nio.file.Files.setOwner(theirs, theirs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        int port = new Ports(low, theirs).pick();
        assertTrue(port >= Ports.LOWEST && port < low, "picked " + port + " as if there were no reservations");
    }
}
