package dev.gantry.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EarlyControlsTest {

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final EarlyControls early = new EarlyControls(() -> now, Duration.ofMinutes(10), 3);

    @Test
    void theLastOrderForARunDecidesHowItStarts() {
        early.record(1, 0, true);
        early.record(1, 0, false);
        early.record(2, 0, true);

        assertEquals(Optional.of(false), early.takeFor(1, 0));
        assertEquals(Optional.of(true), early.takeFor(2, 0));
    }

    @Test
    void anOrderIsTakenOnce_andOrdersForOtherRunsOfTheJobGoWithIt() {
        early.record(1, 0, true);
        early.record(1, 1, true);

        assertEquals(Optional.of(true), early.takeFor(1, 1));
        assertEquals(Optional.empty(), early.takeFor(1, 0));
        assertEquals(0, early.size());
    }

    @Test
    void anOrderForAnotherRunDoesNotApply() {
        early.record(1, 2, true);

        assertEquals(Optional.empty(), early.takeFor(1, 1));
    }

    @Test
    void ordersExpire_andTheOldestGoFirstWhenFull() {
        early.record(1, 0, true);
        now = now.plusSeconds(300);
        early.record(2, 0, true);
        early.record(3, 0, true);
        early.record(4, 0, true);         // over capacity: job 1's order goes
        assertEquals(Optional.empty(), early.takeFor(1, 0));

        now = now.plusSeconds(601);       // past the memory of 2, 3 and 4
        assertEquals(0, early.size());
    }

    @Test
    void aTerminatedJobsOrdersAreForgotten() {
        early.record(1, 0, true);
        early.forget(1);

        assertEquals(Optional.empty(), early.takeFor(1, 0));
    }

    @Test
    void memoryAndCapacityMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new EarlyControls(() -> now, Duration.ZERO, 1));
        assertThrows(IllegalArgumentException.class, () -> new EarlyControls(() -> now, Duration.ofSeconds(1), 0));
    }
}
