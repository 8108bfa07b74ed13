package dev.gantry.cli.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Loopback ports for the local cluster: configured ones must be free; the rest are picked.
 *
 * <p>A picked port is free when picked but only bound when its service starts, seconds later. The kernel's ephemeral
 * range ({@code /proc/sys/net/ipv4/ip_local_port_range}) is where every outgoing connection on the host takes its
 * local port, so a port picked there can be taken meanwhile by any connection (a service's own, a build's, a test's):
 * the service then fails to bind. Ports are therefore picked below that range, where only listeners that ask for a
 * port by number go.
 */
final class Ports {

    /** The lowest port picked: above the well-known and most registered services' ports. */
    static final int LOWEST = 20000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private final Set<Integer> handedOut = new HashSet<>();
    private final SplittableRandom random = new SplittableRandom();
    private final int below;

    Ports() {
        this(ephemeralLow());
    }

    /** @param ephemeralLow the first port of the kernel's ephemeral range */
    Ports(int ephemeralLow) {
        this.below = ephemeralLow;
    }

    /** A free loopback port not handed out before by this instance, below the ephemeral range when there is room. */
    int pick() throws IOException {
        if (below - LOWEST >= 1000) {
            for (int attempt = 0; attempt < 200; attempt++) {
                int port = random.nextInt(LOWEST, below);
                if (!handedOut.contains(port) && free(port)) {
                    handedOut.add(port);
                    return port;
                }
            }
        }
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (handedOut.add(s.getLocalPort())) {
                    return s.getLocalPort();
                }
            }
        }
        throw new IOException("no free loopback port found");
    }

    /** The configured port if it is free, else an error naming the key. 0 means pick one. */
    int require(int port, String key) throws IOException {
        if (port == 0) {
            return pick();
        }
        if (!handedOut.add(port)) {
            throw new IOException("port " + port + " (" + key + ") is given to two services");
        }
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return port;
        } catch (IOException e) {
            throw new IOException("port " + port + " (" + key + ") is already in use", e);
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first port of the kernel's ephemeral range; Linux's default when it cannot be read. */
    static int ephemeralLow() {
        try {
            // readAllLines, not readString: on this JDK readString of a procfs file (size 0) gave "3", not the line
            return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).getFirst().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
