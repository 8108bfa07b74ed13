package dev.gantry.scheduler.limits;

import dev.gantry.common.config.SlurmctldParameters.WatchLimits;
import java.util.HashMap;
import java.util.Map;

/**
 * How many server-streaming calls are open, per user and in all, against watch_max_per_user and watch_max. Not
 * thread-safe: one caller at a time. Memory: one entry per user with a stream open.
 */
public final class StreamQuota {

    /** Which cap refused a stream (a metric label). */
    public enum Cap { PER_USER, TOTAL }

    public sealed interface Admission permits Opened, Refused {}

    public record Opened() implements Admission {}

    public record Refused(Cap cap, String message) implements Admission {}

    private final WatchLimits limits;
    private final Map<String, Integer> open = new HashMap<>();
    private int total;

    public StreamQuota(WatchLimits limits) {
        this.limits = limits;
    }

    /** Counts a new stream of {@code user}, or refuses it; an opened stream must be {@link #close}d exactly once. */
    public Admission open(String user) {
        int mine = open.getOrDefault(user, 0);
        if (mine >= limits.perUser()) {
            return new Refused(Cap.PER_USER, "watch streams: " + user + " has " + mine + " open, the most one user may "
                    + "(SlurmctldParameters watch_max_per_user=" + limits.perUser() + "); end one first");
        }
        if (total >= limits.total()) {
            return new Refused(Cap.TOTAL, "watch streams: " + total + " open on this controller, the most it allows "
                    + "(SlurmctldParameters watch_max=" + limits.total() + "); try again later");
        }
        open.put(user, mine + 1);
        total++;
        return new Opened();
    }

    /** A stream of {@code user} ended. */
    public void close(String user) {
        Integer mine = open.get(user);
        if (mine == null) {
            throw new IllegalStateException("no open stream of " + user);
        }
        if (mine == 1) {
            open.remove(user);
        } else {
            open.put(user, mine - 1);
        }
        total--;
    }

    public int total() {
        return total;
    }

    public int openBy(String user) {
        return open.getOrDefault(user, 0);
    }
}
