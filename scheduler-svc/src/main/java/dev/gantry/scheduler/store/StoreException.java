package dev.gantry.scheduler.store;

/** The database could not do what was asked. */
public class StoreException extends Exception {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
