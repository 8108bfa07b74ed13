package dev.gantry.select.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One node, 8 CPUs, 4 free now; a running job gives 4 back at t=100; a reservation takes 6 over [200, 300). Times are
 * seconds; now = 0.
 */
class AvailabilityProfileTest {

    private static AvailabilityProfile profile() {
        AvailabilityProfile p = new AvailabilityProfile(0, new int[] {4}, new long[] {1000}, new int[] {0});
        p.release(0, 100, 4, 0, 0);
        p.reserve(0, 200, 300, 6, 0, 0);
        return p;
    }

    static Stream<Arguments> earliest() {
        return Stream.of(
                Arguments.of("fits now for a while", 4, 200, 0L),
                Arguments.of("four CPUs for ever: only once the reservation is over", 4, 1_000_000, 300L),
                Arguments.of("needs the running job's CPUs: at its end", 8, 50, 100L),
                Arguments.of("fits in the gap before the reservation", 6, 100, 100L),
                Arguments.of("too long for the gap: after the reservation", 6, 150, 300L),
                Arguments.of("small enough to run beside the reservation: now", 2, 1_000, 0L),
                Arguments.of("more than the node has: never", 9, 1, AvailabilityProfile.NEVER));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("earliest")
    void findsTheEarliestWindow(String rule, int cpus, long duration, long expected) {
        assertEquals(expected, profile().earliest(0, 0, duration, cpus, 0, 0));
    }

    @Test
    void fitsChecksEverySegmentOfTheWindow() {
        AvailabilityProfile p = profile();
        assertTrue(p.fits(0, 100, 200, 8, 0, 0));
        assertFalse(p.fits(0, 150, 250, 8, 0, 0));
        assertTrue(p.fits(0, 150, 250, 2, 0, 0));
        assertEquals(2, p.freeCpusAt(0, 250));
        assertEquals(8, p.freeCpusAt(0, 300));
    }

    @Test
    void aCutoffStopsTheSearchEarly() {
        assertEquals(AvailabilityProfile.NEVER, profile().earliest(0, 0, 150, 6, 0, 0, 250));
        assertEquals(300L, profile().earliest(0, 0, 150, 6, 0, 0, 300));
    }

    @Test
    void memoryCountsLikeCpus() {
        AvailabilityProfile p = new AvailabilityProfile(0, new int[] {8}, new long[] {1000}, new int[] {0});
        p.reserve(0, 0, 500, 0, 800, 0);
        assertEquals(500L, p.earliest(0, 0, 10, 1, 300, 0));
        assertEquals(0L, p.earliest(0, 0, 10, 1, 200, 0));
    }
}
