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
}
