package dev.gantry.cli.controller;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** Slurm's wording for a failed call to the controller (slurm_strerror), adapted to Gantry. */
public final class ControllerFailure {

    /** The text for a controller that cannot be reached. */
    public static final String CONNECT_FAILURE = "Unable to contact Gantry controller (connect failure)";

    /** The text for a call that ran out of time. */
    public static final String TIMEOUT = "Socket timed out on send/recv operation";

    /** How scheduler-svc begins the description of UNAVAILABLE while its database is down. */
    static final String DATABASE_UNAVAILABLE = "database unavailable: ";

    private ControllerFailure() {}

    /** What went wrong, as the text after Slurm's "...error: " prefix. */
    public static String describe(StatusRuntimeException e) {
        Status status = e.getStatus();
        return switch (status.getCode()) {
            // the controller's own refusal ("database unavailable: …") says more than a failed connection would
            case UNAVAILABLE -> status.getDescription() != null && status.getDescription().startsWith(DATABASE_UNAVAILABLE)
                    ? status.getDescription() : CONNECT_FAILURE;
            case DEADLINE_EXCEEDED -> TIMEOUT;
            default -> status.getDescription() != null && !status.getDescription().isBlank()
                    ? status.getDescription()
                    : status.getCode().name();
        };
    }
}
