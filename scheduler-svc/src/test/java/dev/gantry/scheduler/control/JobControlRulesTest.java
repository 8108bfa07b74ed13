package dev.gantry.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** --begin and --nice, as sbatch documents them. */
class JobControlRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:30:00Z");

    @Test
    void begin_parsesSlurmDates() {
        assertEquals(Instant.parse("2026-11-22T16:00:00Z"), BeginTime.parse("16:00", NOW, ZoneOffset.UTC));
        assertEquals(NOW.plusSeconds(3600), BeginTime.parse("now+1hour", NOW, ZoneOffset.UTC));
    }

    @Test
    void begin_refusesWithSbatchsMessage() {
        InvalidControlException e = assertThrows(InvalidControlException.class,
                () -> BeginTime.parse("someday", NOW, ZoneOffset.UTC));
        assertEquals("Invalid --begin specification", e.getMessage());
        assertEquals("begin", e.field());
        assertEquals("Invalid time specification (pos=0): someday", e.detail());
    }

    @Test
    void begin_eligibleFromTheBeginTimeOn() {
        assertTrue(BeginTime.eligible(null, NOW));
        assertTrue(BeginTime.eligible(NOW, NOW));
        assertTrue(BeginTime.eligible(NOW.minusSeconds(1), NOW));
        assertFalse(BeginTime.eligible(NOW.plusSeconds(1), NOW));
    }

    @ParameterizedTest(name = "--nice={0} = {1}")
    @CsvSource({"0, 0", "100, 100", "-5, -5", "+7, 7", "2147483645, 2147483645", "-2147483645, -2147483645"})
    void nice_parsesWithinTheRange(String arg, int expected) {
        assertEquals(expected, NicePolicy.parse(arg));
    }

    @Test
    void nice_bareMeans100() {
        assertEquals(100, NicePolicy.parse(null));
    }

    @ParameterizedTest(name = "--nice={0} is out of range")
    @CsvSource({"2147483646", "-2147483646", "99999999999999999999", "9223372036854775807", "-9223372036854775808"})
    void nice_refusesOutOfRange(String arg) {
        InvalidControlException e = assertThrows(InvalidControlException.class, () -> NicePolicy.parse(arg));
        assertEquals("Nice value out of range (+/- 2147483645)", e.getMessage());
        assertEquals("nice", e.field());
    }

    @ParameterizedTest(name = "--nice={0} is not a number")
    @CsvSource({"abc", "1.5", "''", "10x"})
    void nice_refusesNonNumbers(String arg) {
        InvalidControlException e = assertThrows(InvalidControlException.class, () -> NicePolicy.parse(arg));
        assertEquals("Invalid --nice value", e.getMessage());
    }

    @Test
    void nice_negativeOnlyForAdmins() {
        assertDoesNotThrow(() -> NicePolicy.checkPermission(-10, true));
        assertDoesNotThrow(() -> NicePolicy.checkPermission(10, false));
        assertDoesNotThrow(() -> NicePolicy.checkPermission(0, false));
        InvalidControlException e = assertThrows(InvalidControlException.class, () -> NicePolicy.checkPermission(-1, false));
        assertEquals("Invalid --nice value", e.getMessage());
    }
}
