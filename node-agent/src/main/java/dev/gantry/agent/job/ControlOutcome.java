package dev.gantry.agent.job;

/** How a SignalJob, SuspendJob or ResumeJob call ended; the gRPC adapter maps each case to one status code. */
public sealed interface ControlOutcome {

    /** Done (or already so: suspending a suspended job is a no-op). */
    record Done() implements ControlOutcome {}

    /** NOT_FOUND: no such job runs on this node. */
    record NoSuchJob(long jobId) implements ControlOutcome {}

    /** INVALID_ARGUMENT, e.g. a signal number outside 1..64. */
    record InvalidRequest(String field, String message) implements ControlOutcome {}

    /** FAILED_PRECONDITION: the job is in a state that forbids it (starting, or being terminated). */
    record WrongState(String message) implements ControlOutcome {}

    ControlOutcome DONE = new Done();
}
