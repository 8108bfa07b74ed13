package dev.gantry.common.failover;

import io.grpc.Metadata;

/** How a standby controller points its callers at the active one. */
public final class ControllerRedirect {

    private ControllerRedirect() {}

    /** Trailer of a standby's UNAVAILABLE answer: the active controller's client address ("host:port"). */
    public static final Metadata.Key<String> ACTIVE_CONTROLLER = Metadata.Key.of("gantry-active-controller", Metadata.ASCII_STRING_MARSHALLER);

    /** How a standby's UNAVAILABLE description begins. */
    public static final String STANDBY_PREFIX = "standby controller: ";
}
