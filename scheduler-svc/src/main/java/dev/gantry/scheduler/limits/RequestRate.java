package dev.gantry.scheduler.limits;

import dev.gantry.common.config.SlurmctldParameters.RateLimit;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Slurm's per-user token buckets (see the package note). Not thread-safe: one caller at a time. Memory is bounded by
 * the table size.
 */
public final class RequestRate {

    /** What one request gets. */
    public sealed interface Verdict permits Admitted, Exempt, Limited, Untracked {}

    /** Within the limit; {@code tokensLeft} after this request. */
    public record Admitted(long tokensLeft) implements Verdict {}

    /** Root or SlurmUser, or limiting is off: never counted. */
    public record Exempt() implements Verdict {}

    /** Over the limit: refuse, saying {@code message}; a token comes back within {@code retryAfterSeconds}. */
    public record Limited(String message, long retryAfterSeconds) implements Verdict {}

    /** The table is full of users still in use: let through uncounted (Slurm: "User will not be limited"). */
    public record Untracked() implements Verdict {}

    private static final class Bucket {
        long lastPeriod;
        long tokens;
    }

    private final RateLimit limit;
    private final String slurmUser;
    private final Map<Long, Bucket> buckets = new HashMap<>();

    /** @param slurmUser the config's SlurmUser, exempt like root */
    public RequestRate(RateLimit limit, String slurmUser) {
        this.limit = limit;
        this.slurmUser = slurmUser;
    }

    /** Takes a token for one request of {@code user} (uid {@code uid}) at {@code now}. */
    public Verdict admit(String user, long uid, Instant now) {
        if (!limit.enabled() || uid == 0 || user.equals(slurmUser)) {
            return new Exempt();
        }
        long period = periodOf(now);
        Bucket b = buckets.get(uid);
        if (b == null) {
            if (buckets.size() >= limit.tableSize() && !forgetFullBuckets(period)) {
                return new Untracked();
            }
            b = new Bucket();
            b.lastPeriod = period;
            b.tokens = limit.bucketSize() - 1L;
            buckets.put(uid, b);
            return new Admitted(b.tokens);
        }
        refill(b, period);
        if (b.tokens > 0) {
            b.tokens--;
            return new Admitted(b.tokens);
        }
        long retry = limit.refillPeriodSeconds() - Math.floorMod(now.getEpochSecond(), (long) limit.refillPeriodSeconds());
        return new Limited("rate limit: " + user + " made more than " + limit.bucketSize() + " requests in a burst or more than "
                + limit.refillRate() + " per " + limit.refillPeriodSeconds() + " s (SlurmctldParameters "
                + limit.describe() + "); retry in " + retry + " s", retry);
    }

    /** Users with a bucket now (at most the table size). */
    public int tracked() {
        return buckets.size();
    }

    private long periodOf(Instant now) {
        return Math.floorDiv(now.getEpochSecond(), (long) limit.refillPeriodSeconds());
    }

    private void refill(Bucket b, long period) {
        long delta = period - b.lastPeriod;
        b.lastPeriod = period;
        if (delta > 0) {
            // saturating: a bucket idle for years must not overflow
            long added = delta > limit.bucketSize() ? limit.bucketSize() : delta * limit.refillRate();
            b.tokens = Math.min(limit.bucketSize(), b.tokens + added);
        }
    }

    /** Drops every bucket that has refilled to full by {@code period}; true if any room was made. */
    private boolean forgetFullBuckets(long period) {
        boolean freed = false;
        for (Iterator<Bucket> it = buckets.values().iterator(); it.hasNext(); ) {
            Bucket b = it.next();
            long delta = period - b.lastPeriod;
            long missing = limit.bucketSize() - b.tokens;
            if (delta > 0 && (delta > limit.bucketSize() || delta * limit.refillRate() >= missing)) {
                it.remove();
                freed = true;
            }
        }
        return freed;
    }
}
