package dev.gantry.scheduler.lease;

import java.time.Duration;
import java.time.Instant;

/** The lease's rules (see the package note): who may take it, and when its holder must consider itself deposed. */
public final class LeaseRules {

    private LeaseRules() {}

    /** What a controller that wants the lease does. */
    public sealed interface Claim {
        /** Take it: write this lease (the fencing number one above the stored one). */
        record Take(Lease lease) implements Claim {}

        /** Another controller holds it: redirect callers to {@code active}, try again after the poll period. */
        record Wait(Lease active) implements Claim {}
    }

    /**
     * Whether {@code me} takes {@code current} at {@code now} (the database's clock).
     *
     * @param address where {@code me}'s clients reach it, written into the lease for the standby's redirects
     */
    public static Claim claim(Lease current, String me, String address, Instant now, LeaseTerms terms) {
        if (me.isBlank()) {
            throw new IllegalArgumentException("a controller needs a name to hold the lease");
        }
        boolean free = current.holder().isEmpty() || current.expiredAt(now) || current.holder().equals(me);
        return free ? new Claim.Take(new Lease(me, address, current.fencing() + 1, now.plus(terms.ttl())))
                : new Claim.Wait(current);
    }

    /**
     * Whether the holder must stop: {@code sinceRenewalSent} is the time on its own monotonic clock since it sent its
     * last renewal that succeeded (or its take). At {@code ttl} a standby may hold the lease already.
     */
    public static boolean selfExpired(Duration sinceRenewalSent, LeaseTerms terms) {
        return sinceRenewalSent.compareTo(terms.ttl()) >= 0;
    }
}
