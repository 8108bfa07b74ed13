package dev.gantry.common.events;

import java.time.Duration;

/**
 * Delay before re-opening a failed event stream: {@code initial} after the first failure, doubling with each
 * further consecutive failure, never more than {@code max}. A stream that delivers its snapshot resets the count.
 */
public record ReconnectBackoff(Duration initial, Duration max) {

    /** 100 ms doubling to 5 s: a restarted scheduler-svc is followed again within seconds. */
    public static final ReconnectBackoff DEFAULT = new ReconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(5));

    public ReconnectBackoff {
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial backoff must be positive, got " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff " + max + " is less than initial " + initial);
        }
    }

    /** The delay after {@code consecutiveFailures} (at least 1) failures in a row. */
    public Duration delayAfter(int consecutiveFailures) {
        if (consecutiveFailures < 1) {
            throw new IllegalArgumentException("consecutiveFailures must be at least 1, got " + consecutiveFailures);
        }
        Duration delay = initial;
        for (int i = 1; i < consecutiveFailures && delay.compareTo(max) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(max) > 0 ? max : delay;
    }
}
