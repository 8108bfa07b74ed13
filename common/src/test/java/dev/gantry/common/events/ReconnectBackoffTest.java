package dev.gantry.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReconnectBackoffTest {

    @ParameterizedTest(name = "after {0} failures in a row wait {1} ms")
    @CsvSource({"1, 100", "2, 200", "3, 400", "4, 800", "5, 1600", "6, 3200", "7, 5000", "8, 5000", "1000, 5000"})
    void defaultBackoff_doublesFrom100msAndCapsAt5s(int failures, long expectedMillis) {
        assertEquals(Duration.ofMillis(expectedMillis), ReconnectBackoff.DEFAULT.delayAfter(failures));
    }

    @Test
    void rejectsNonPositiveInitialAndMaxBelowInitial() {
        assertThrows(IllegalArgumentException.class, () -> new ReconnectBackoff(Duration.ZERO, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new ReconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> ReconnectBackoff.DEFAULT.delayAfter(0));
    }
}
