package dev.gantry.scheduler.lease;

import java.time.Instant;

/**
 * The controller lease as stored: who holds it, where its clients reach it, its fencing number and its expiry (the
 * database's clock). An empty holder: nobody has held it yet.
 */
public record Lease(String holder, String address, long fencing, Instant expiresAt) {

    public Lease {
        if (fencing < 0) {
            throw new IllegalArgumentException("fencing must be >= 0, got " + fencing);
        }
    }

    /** Whether it has run out at {@code now} (the database's clock). */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
