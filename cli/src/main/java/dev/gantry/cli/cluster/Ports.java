package dev.gantry.cli.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** Loopback ports for the local cluster: configured ones must be free; the rest are picked. */
final class Ports {

    private final Set<Integer> handedOut = new HashSet<>();

    /** A free loopback port not handed out before by this instance. */
    int pick() throws IOException {
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
}
