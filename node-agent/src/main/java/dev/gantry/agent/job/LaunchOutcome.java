package dev.gantry.agent.job;

/** How a LaunchJob call ended; the gRPC adapter maps each case to one status code. */
public sealed interface LaunchOutcome {

    /** The batch script runs as {@code pid}, the leader of its own process group. */
    record Started(long pid) implements LaunchOutcome {}

    /** PERMISSION_DENIED: the credential failed a check, or the job was launched or terminated here before. */
    record Refused(String reason) implements LaunchOutcome {}

    /** INVALID_ARGUMENT: a request field is malformed; {@code field} is its proto name. */
    record InvalidRequest(String field, String message) implements LaunchOutcome {}

    /** FAILED_PRECONDITION: the node cannot run it as asked (work_dir missing, output not writable); nothing ran. */
    record Unrunnable(String message) implements LaunchOutcome {}

    /** INTERNAL: the agent itself failed (spool not writable, process could not be started); nothing runs. */
    record Failed(String message) implements LaunchOutcome {}

    /** One line for logs: the pid, or why nothing runs. */
    default String summary() {
        return switch (this) {
            case Started s -> "started as pid " + s.pid();
            case Refused r -> "refused: " + r.reason();
            case InvalidRequest i -> "invalid " + i.field() + ": " + i.message();
            case Unrunnable u -> u.message();
            case Failed f -> "failed: " + f.message();
        };
    }

    /** The metric label: ok, refused or failed. */
    default String result() {
        return switch (this) {
            case Started s -> "ok";
            case Refused r -> "refused";
            case InvalidRequest i -> "failed";
            case Unrunnable u -> "failed";
            case Failed f -> "failed";
        };
    }
}
