package dev.gantry.scheduler.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Waiting in the runtime tests for what the controller does on its own thread or over gRPC. */
final class TestWait {
    private TestWait() {}

    /** Polls {@code condition} every 20 ms until it holds; fails naming {@code what} after a minute. */
    static void await(String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("gave up waiting for: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
