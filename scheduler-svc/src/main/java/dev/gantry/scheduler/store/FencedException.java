package dev.gantry.scheduler.store;

/**
 * A write refused because the controller lease's fencing number is no longer the writer's: another controller took
 * over. Not retried: the writer is deposed and must stop.
 */
public final class FencedException extends StoreException {

    public FencedException(long mine) {
        super("fenced: this controller's fencing number " + mine + " is no longer the lease's (another controller took over)", null);
    }
}
