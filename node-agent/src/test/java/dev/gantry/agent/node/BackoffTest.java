package dev.gantry.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));

    @ParameterizedTest(name = "after {0} failures wait {1} ms")
    @CsvSource({"0, 500", "1, 500", "2, 1000", "3, 2000", "6, 16000", "7, 30000", "100, 30000", "2147483647, 30000"})
    void delay_doublesUpToTheCap(int failures, long millis) {
        assertEquals(Duration.ofMillis(millis), backoff.delay(failures));
    }

    @Test
    void capBelowInitial_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }
}
