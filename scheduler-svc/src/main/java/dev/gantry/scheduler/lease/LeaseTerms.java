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

    /** 7 s lease, renewed every second, polled every second: a takeover within 8 s of the holder's last renewal. */
    public static final LeaseTerms DEFAULT = new LeaseTerms(Duration.ofSeconds(7), Duration.ofSeconds(1), Duration.ofSeconds(1));

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
