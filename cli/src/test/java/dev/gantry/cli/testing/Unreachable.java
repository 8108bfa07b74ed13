package dev.gantry.cli.testing;

import dev.gantry.cli.controller.ControllerAddress;
import dev.gantry.cli.controller.ControllerChannels;
import dev.gantry.cli.controller.ControllerConnector;
import dev.gantry.cli.controller.ControllerNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Connectors for the two ways of not reaching a controller. */
public final class Unreachable {

    private Unreachable() {}

    /** No address configured anywhere. */
    public static ControllerConnector notConfigured() {
        return () -> {
            throw new ControllerNotFoundException(ControllerNotFoundException.NOT_CONFIGURED);
        };
    }

    /** A real channel to a loopback port nothing listens on (connection refused). */
    public static ControllerConnector closedPort() {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ControllerAddress address = new ControllerAddress("127.0.0.1", port);
        return () -> ControllerChannels.open(address);
    }
}
