package dev.gantry.agent.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition with a generous timeout; never asserts on how long it took. */
public final class Await {
    public static final Duration PATIENCE = Duration.ofSeconds(60);

    private Await() {}

    public static void until(String what, BooleanSupplier condition) {
        until(what, PATIENCE, condition);
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for: " + what);
            }
            pause(20);
        }
    }

    /** Waits until {@code value} returns non-null and returns it. */
    public static <T> T value(String what, Supplier<T> value) {
        Object[] holder = new Object[1];
        until(what, () -> (holder[0] = value.get()) != null);
        @SuppressWarnings("unchecked")
        T t = (T) holder[0];
        return t;
    }

    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
