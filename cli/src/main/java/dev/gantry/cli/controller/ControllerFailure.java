package dev.gantry.cli.controller;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Slurm's wording for a failed call to the controller (slurm_strerror), adapted to Gantry. */
public final class ControllerFailure {

    /** The text for a controller that cannot be reached. */
    public static final String CONNECT_FAILURE = "Unable to contact Gantry controller (connect failure)";

    /** The text for a call that ran out of time. */
    public static final String TIMEOUT = "Socket timed out on send/recv operation";

    /** How scheduler-svc begins the description of UNAVAILABLE while its database is down. */
    static final String DATABASE_UNAVAILABLE = "database unavailable: ";

    /** grpc-java's refusal of a message over a transport's limit: "gRPC message exceeds maximum size LIMIT: SIZE". */
    private static final Pattern TOO_LARGE = Pattern.compile("gRPC message exceeds maximum size (\\d+): (\\d+)");

    private ControllerFailure() {}

    /** What went wrong, as the text after Slurm's "...error: " prefix. */
    public static String describe(StatusRuntimeException e) {
        Status status = e.getStatus();
        return switch (status.getCode()) {
            // the controller's own refusal ("database unavailable: …") says more than a failed connection would
            case UNAVAILABLE -> status.getDescription() != null && status.getDescription().startsWith(DATABASE_UNAVAILABLE)
                    ? status.getDescription() : CONNECT_FAILURE;
            case DEADLINE_EXCEEDED -> TIMEOUT;
            case RESOURCE_EXHAUSTED -> tooLarge(status.getDescription());
            default -> status.getDescription() != null && !status.getDescription().isBlank()
                    ? status.getDescription()
                    : status.getCode().name();
        };
    }

    /**
     * A message over a transport's limit, in words that name the limit: the request over the controller's (the client
     * API takes SchedulerParameters=max_script_size and room for the rest) or, with this command's own limit, the
     * answer. Any other RESOURCE_EXHAUSTED (a rate limit, a stream cap) is the controller's own text.
     */
    private static String tooLarge(String description) {
        Matcher m = TOO_LARGE.matcher(description == null ? "" : description);
        if (!m.matches()) {
            return description != null && !description.isBlank() ? description : Status.Code.RESOURCE_EXHAUSTED.name();
        }
        if (Long.parseLong(m.group(1)) == ControllerChannels.MAX_ANSWER_BYTES) {
            return "the controller's answer is " + m.group(2) + " bytes, more than the " + m.group(1)
                    + " bytes a command takes";
        }
        return "the request is " + m.group(2) + " bytes, more than the " + m.group(1) + " bytes the controller takes "
                + "(SchedulerParameters=max_script_size and room for the environment and options)";
    }
}
