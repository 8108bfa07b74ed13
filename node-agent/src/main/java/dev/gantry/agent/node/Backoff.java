package dev.gantry.agent.node;

import java.time.Duration;

/**
 * Capped exponential backoff for calls to an unreachable controller: {@code initial}, doubling per failed
 * attempt, never more than {@code max}. Deterministic (no jitter): each agent's start time already spreads them.
 */
public record Backoff(Duration initial, Duration max) {

    public Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 < initial <= max, got " + initial + " and " + max);
        }
    }

    /** The wait before retry number {@code failures} (1 = after the first failure). */
    public Duration delay(int failures) {
        if (failures <= 1) {
            return initial;
        }
        int shift = Math.min(failures - 1, 30);
        Duration d = initial.multipliedBy(1L << shift);
        return d.compareTo(max) > 0 ? max : d;
    }
}
