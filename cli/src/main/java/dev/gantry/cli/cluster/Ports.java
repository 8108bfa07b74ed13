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
 *
 * <p>Two {@code gantry up} of one user running at once (the end-to-end tests in parallel forks) could pick the same
 * port in the seconds before either binds it, so a picked port is also reserved, for {@link #HELD} after it is picked,
 * by a file of its own in a directory of the user's ({@code /tmp/gantry-ports-UID}, or {@code reservations}): a port
 * another process reserved in that time is not picked.
 */
final class Ports {

    /** How long a reservation keeps other pickers off a port: its service binds it well within that. */
    static final java.time.Duration HELD = java.time.Duration.ofMinutes(3);

    /** The lowest port picked: above the well-known and most registered services' ports. */
    static final int LOWEST = 20000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private final Set<Integer> handedOut = new HashSet<>();
    private final SplittableRandom random = new SplittableRandom();
    private final int below;
    private final Path reservations;

    Ports() {
        this(ephemeralLow());
    }

    /** @param ephemeralLow the first port of the kernel's ephemeral range */
    Ports(int ephemeralLow) {
        this(ephemeralLow, defaultReservations());
    }

    /** @param reservations the directory of reservation files (made owner-only if missing) */
    Ports(int ephemeralLow, Path reservations) {
        this.below = ephemeralLow;
        this.reservations = reservations;
    }

    private static Path defaultReservations() {
        String uid;
        try {
            uid = String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            uid = System.getProperty("user.name", "user");
        }
        return Path.of(System.getProperty("java.io.tmpdir", "/tmp"), "gantry-ports-" + uid);
    }

    /**
     * Reserves {@code port} for this process: false when another picker reserved it less than {@link #HELD} ago. A
     * directory that cannot be used reserves nothing (the pick is then as good as a free port check).
     */
    private boolean reserve(int port) {
        try {
            if (!Files.isDirectory(reservations, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(reservations, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            }
            if (!Files.getOwner(reservations, java.nio.file.LinkOption.NOFOLLOW_LINKS).equals(Files.getOwner(Path.of("/proc/self")))) {
                return true; // another user's directory (made to get in the way): reservations are not used
            }
            Path f = reservations.resolve(Integer.toString(port));
            try {
                Files.createFile(f);
                return true;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                java.time.Instant at = Files.getLastModifiedTime(f).toInstant();
                if (at.plus(HELD).isAfter(java.time.Instant.now())) {
                    return false;
                }
                // an old reservation: taken over (a rare race here ends, at worst, as a pick without reservation)
                Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.from(java.time.Instant.now()));
                return true;
            }
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** A free loopback port not handed out before by this instance, below the ephemeral range when there is room. */
    int pick() throws IOException {
        if (below - LOWEST >= 1000) {
            for (int attempt = 0; attempt < 200; attempt++) {
                int port = random.nextInt(LOWEST, below);
                if (!handedOut.contains(port) && free(port) && reserve(port)) {
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
