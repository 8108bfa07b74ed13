package dev.gantry.scheduler.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.SlurmctldParameters.RateLimit;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Slurm's token buckets (rate_limit.c), on a clock set by hand. */
class RequestRateTest {

    static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
    static final RateLimit SLURM = new RateLimit(true, 30, 2, 1, 8192);

    /** How many of {@code n} requests at {@code at} get through. */
    static int admitted(RequestRate rate, String user, long uid, Instant at, int n) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            if (!(rate.admit(user, uid, at) instanceof RequestRate.Limited)) {
                ok++;
            }
        }
        return ok;
    }

    @Test
    void aBurstTakesTheBucket_thenRefillRatePerPeriod() {
        RequestRate rate = new RequestRate(SLURM, "slurm");

        assertEquals(30, admitted(rate, "alice", 1000, T0, 40));
        assertEquals(0, admitted(rate, "alice", 1000, T0.plusMillis(999), 5));
        assertEquals(2, admitted(rate, "alice", 1000, T0.plusSeconds(1), 5));
        assertEquals(20, admitted(rate, "alice", 1000, T0.plusSeconds(11), 25));
        assertEquals(30, admitted(rate, "alice", 1000, T0.plusSeconds(3600), 40), "refills up to the bucket, no more");
    }

    @Test
    void aLimitedRequest_namesTheLimitAndWhenToRetry() {
        RequestRate rate = new RequestRate(new RateLimit(true, 1, 1, 10, 8192), "slurm");
        rate.admit("alice", 1000, T0);

        var limited = assertInstanceOf(RequestRate.Limited.class, rate.admit("alice", 1000, T0.plusSeconds(3)));

        assertEquals(7, limited.retryAfterSeconds());
        assertTrue(limited.message().startsWith("rate limit: alice made more than 1 requests"), limited.message());
        assertTrue(limited.message().contains("rl_bucket_size=1,rl_refill_rate=1,rl_refill_period=10"), limited.message());
    }

    @Test
    void usersHaveBucketsOfTheirOwn() {
        RequestRate rate = new RequestRate(SLURM, "slurm");
        admitted(rate, "alice", 1000, T0, 40);

        assertEquals(30, admitted(rate, "bob", 1001, T0, 40));
    }

    @Test
    void rootAndSlurmUser_areNeverLimited_norCounted() {
        RequestRate rate = new RequestRate(SLURM, "slurm");

        assertEquals(1000, admitted(rate, "root", 0, T0, 1000));
        assertEquals(1000, admitted(rate, "slurm", 64030, T0, 1000));
        assertEquals(0, rate.tracked());
        assertInstanceOf(RequestRate.Exempt.class, new RequestRate(RateLimit.OFF, "slurm").admit("alice", 1000, T0));
    }

    @Test
    void aFullTable_forgetsRefilledBuckets_andOtherwiseLetsNewcomersPassUncounted() {
        RequestRate rate = new RequestRate(new RateLimit(true, 5, 1, 1, 2), "slurm");
        admitted(rate, "a", 1, T0, 5);
        admitted(rate, "b", 2, T0, 5);

        assertInstanceOf(RequestRate.Untracked.class, rate.admit("c", 3, T0.plusSeconds(1)), "a and b still in use");
        assertInstanceOf(RequestRate.Admitted.class, rate.admit("c", 3, T0.plusSeconds(5)), "a's and b's buckets are full again");
        assertTrue(rate.tracked() <= 2);
    }
}
