package dev.gantry.cli.supervision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestartPolicyTest {

    @ParameterizedTest(name = "crash {0} in a row waits {1} s")
    @CsvSource({"1, 1", "2, 2", "3, 4", "4, 8", "5, 16", "6, 30", "7, 30", "40, 30"})
    void backoff_startsAtOneSecondAndDoublesUpToThirty(int crashes, long seconds) {
        assertEquals(Duration.ofSeconds(seconds), RestartPolicy.DEFAULT.backoff(crashes));
    }

    @Test
    void backoff_ofAHugeRowDoesNotOverflow() {
        assertEquals(Duration.ofSeconds(30), RestartPolicy.DEFAULT.backoff(Integer.MAX_VALUE));
    }

    @Test
    void stable_fromOneMinuteOfRunning() {
        assertFalse(RestartPolicy.DEFAULT.stable(Duration.ofSeconds(59)));
        assertTrue(RestartPolicy.DEFAULT.stable(Duration.ofSeconds(60)));
    }

    @Test
    void aPolicyThatCannotWork_isRefusedNamingTheField() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> new RestartPolicy(Duration.ZERO, Duration.ofSeconds(1), Duration.ofMinutes(1), 3));
        assertTrue(e.getMessage().contains("initial"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new RestartPolicy(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMinutes(1), 3));
        assertTrue(e.getMessage().contains("max"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMinutes(1), 0));
        assertTrue(e.getMessage().contains("giveUpAfter"), e.getMessage());
    }
}
