package dev.gantry.scheduler.store;

/**
 * The database cannot commit now: what was asked is not (yet) durable, so it is not acknowledged. gRPC answers it
 * UNAVAILABLE. Carries no stack trace (it is an answer, not a bug).
 */
public final class DatabaseUnavailable extends RuntimeException {
    public DatabaseUnavailable(String cause) {
        super("database unavailable: " + cause, null, false, false);
    }
}
