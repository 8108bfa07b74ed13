package dev.gantry.cli.supervision;

import java.time.Duration;

/**
 * When a crashed service is started again: after {@code initial}, doubling with each crash in a row up to {@code max};
 * a run of at least {@code stableAfter} ends the row; {@code giveUpAfter} crashes in a row and the service is left
 * down (see the package note).
 */
public record RestartPolicy(Duration initial, Duration max, Duration stableAfter, int giveUpAfter) {

    /** 1 s doubling to 30 s, the row reset after a minute of running, given up after 10 crashes in a row. */
    public static final RestartPolicy DEFAULT = new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30),
            Duration.ofMinutes(1), 10);

    public RestartPolicy {
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial back-off must be positive, got " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max back-off " + max + " is below the initial " + initial);
        }
        if (stableAfter.isNegative()) {
            throw new IllegalArgumentException("stableAfter must not be negative, got " + stableAfter);
        }
        if (giveUpAfter < 1) {
            throw new IllegalArgumentException("giveUpAfter must be at least 1, got " + giveUpAfter);
        }
    }

    /** The wait before restarting after the {@code crashesInARow}-th crash in a row (1 for the first): initial·2^(n−1), at most max. */
    public Duration backoff(int crashesInARow) {
        if (crashesInARow < 1) {
            throw new IllegalArgumentException("crashesInARow starts at 1, got " + crashesInARow);
        }
        Duration d = initial;
        for (int i = 1; i < crashesInARow && d.compareTo(max) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(max) > 0 ? max : d;
    }

    /** Whether a run of {@code ran} was long enough to end the row of crashes. */
    public boolean stable(Duration ran) {
        return ran.compareTo(stableAfter) >= 0;
    }
}
