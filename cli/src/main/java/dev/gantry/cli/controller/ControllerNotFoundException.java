package dev.gantry.cli.controller;

/** No controller address is configured, or the one configured cannot be read; the message says which. */
public final class ControllerNotFoundException extends Exception {

    /** The message when no address is configured anywhere. */
    public static final String NOT_CONFIGURED = "cannot find the Gantry controller: "
            + "set GANTRY_CONTROLLER=host:port or start a local cluster with bin/gantry up";

    public ControllerNotFoundException(String message) {
        super(message);
    }
}
