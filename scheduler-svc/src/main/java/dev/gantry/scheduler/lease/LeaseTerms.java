package dev.gantry.scheduler.lease;

import java.time.Duration;

/**
 * How long a lease lasts and how often it is renewed and polled. A standby takes over at most {@code ttl + pollEvery}
 * after the holder's last renewal.
 *
 * @param ttl        how long a renewal keeps the lease (> renewEvery, so a renewal or two may fail)
 * @param renewEvery the holder's renewal period
 * @param pollEvery  a standby's polling period
 */
public record LeaseTerms(Duration ttl, Duration renewEvery, Duration pollEvery) {

    /**
     * 6 s lease, renewed every second, polled every half second: the standby takes the lease within 6.5 s of the
     * holder's last renewal, and serves about 2–3 s later (its start path), within 10 s of a death or a freeze.
     */
    public static final LeaseTerms DEFAULT = new LeaseTerms(Duration.ofSeconds(6), Duration.ofSeconds(1), Duration.ofMillis(500));

    public LeaseTerms {
        if (renewEvery.isNegative() || renewEvery.isZero() || pollEvery.isNegative() || pollEvery.isZero()) {
            throw new IllegalArgumentException("renewEvery and pollEvery must be > 0");
        }
        if (ttl.compareTo(renewEvery.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("ttl (" + ttl.toMillis() + " ms) must be at least twice renewEvery ("
                    + renewEvery.toMillis() + " ms)");
        }
    }
}
