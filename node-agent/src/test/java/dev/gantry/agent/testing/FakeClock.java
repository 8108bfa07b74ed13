package dev.gantry.agent.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that moves only when told. Thread-safe. */
public final class FakeClock implements InstantSource {
    private Instant now;

    public FakeClock(Instant start) {
        this.now = start;
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    public synchronized void advance(Duration d) {
        now = now.plus(d);
    }
}
