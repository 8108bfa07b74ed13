package dev.gantry.common.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Time strings as sbatch --time documents them: https://slurm.schedmd.com/sbatch.html#OPT_time. */
class SlurmTimeTest {

    @ParameterizedTest(name = "{0} ({2}) = {1} s")
    @CsvSource(delimiter = '|', value = {
        "0            | 0       | minutes",
        "30           | 1800    | minutes",
        "90           | 5400    | minutes beyond an hour are not carried",
        "5:30         | 330     | minutes:seconds",
        "0:45         | 45      | minutes:seconds",
        "1:00:00      | 3600    | hours:minutes:seconds",
        "36:00:00     | 129600  | hours beyond a day are not carried",
        "2-12         | 216000  | days-hours",
        "1-0          | 86400   | days-hours",
        "1-02:30      | 95400   | days-hours:minutes",
        "1-02:30:15   | 95415   | days-hours:minutes:seconds",
        "7-00:00:00   | 604800  | days-hours:minutes:seconds",
        "' 10 '       | 600     | surrounding white space is ignored",
    })
    void parseLimitSeconds_acceptsEveryDocumentedForm(String text, long seconds, String form) {
        assertEquals(seconds, SlurmTime.parseLimitSeconds(text));
    }

    @ParameterizedTest(name = "{0} is UNLIMITED")
    @ValueSource(strings = {"UNLIMITED", "unlimited", "INFINITE", "Infinite", "-1"})
    void parseLimitSeconds_unlimitedWords(String text) {
        assertEquals(SlurmTime.UNLIMITED, SlurmTime.parseLimitSeconds(text));
    }

    @ParameterizedTest(name = "\"{0}\" is malformed")
    @ValueSource(strings = {"", " ", "abc", "1h", "1.5", "-5", "1:2:3:4", "1-2:3:4:5", "1-", "-1-2", "1-2-3", ":30", "30:",
        "1::2", "1-:30", "+5", "1 2", "1234567890", "\u0661\u0660"})
    void parseLimitSeconds_refusesMalformedStrings(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlurmTime.parseLimitSeconds(text));
        assertTrue(e.getMessage().startsWith("Invalid time specification"), e.getMessage());
    }

    @Test
    void parseLimitSeconds_ofNullIsMalformed() {
        assertThrows(IllegalArgumentException.class, () -> SlurmTime.parseLimitSeconds(null));
    }

    @ParameterizedTest(name = "{0} s elapsed prints as {1}")
    @CsvSource({
        "0, 0:00",
        "5, 0:05",
        "59, 0:59",
        "60, 1:00",
        "3599, 59:59",
        "3600, 1:00:00",
        "3661, 1:01:01",
        "86399, 23:59:59",
        "86400, 1-00:00:00",
        "95415, 1-02:30:15",
        "1036800, 12-00:00:00",
        "-7, 0:00",
    })
    void formatElapsed_isSqueueTimeColumn(long seconds, String printed) {
        assertEquals(printed, SlurmTime.formatElapsed(seconds));
    }

    @ParameterizedTest(name = "limit {0} s prints as {1}")
    @CsvSource({"1800, 30:00", "3600, 1:00:00", "172800, 2-00:00:00", "-1, UNLIMITED"})
    void formatLimit_isSqueueTimeLimitColumn(long seconds, String printed) {
        assertEquals(printed, SlurmTime.formatLimit(seconds));
    }

    @ParameterizedTest(name = "limit {0} s prints as TimeLimit={1}")
    @CsvSource({"0, 00:00:00", "330, 00:05:30", "3600, 01:00:00", "86399, 23:59:59", "86400, 1-00:00:00",
        "95415, 1-02:30:15", "-1, UNLIMITED"})
    void formatLimitLong_isScontrolTimeLimit(long seconds, String printed) {
        assertEquals(printed, SlurmTime.formatLimitLong(seconds));
    }

    @ParameterizedTest(name = "parse(formatLimitLong({0})) = {0}")
    @ValueSource(longs = {0, 59, 60, 3599, 3600, 86400, 95415, 31 * 86400 + 1})
    void formatLimitLong_parsesBack(long seconds) {
        assertEquals(seconds, SlurmTime.parseLimitSeconds(SlurmTime.formatLimitLong(seconds)));
    }

    @ParameterizedTest(name = "parse(formatLimit({0})) = {0}")
    @ValueSource(longs = {60, 3600, 86400, 95460, -1})
    void formatLimit_parsesBack(long seconds) {
        assertEquals(seconds, SlurmTime.parseLimitSeconds(SlurmTime.formatLimit(seconds)));
    }

    @Test
    void formatTimestamp_isIsoSecondsInTheZoneOrNA() {
        Instant t = Instant.parse("2026-11-22T05:31:19.750Z");
        assertEquals("2026-11-22T05:31:19", SlurmTime.formatTimestamp(t, ZoneOffset.UTC));
        assertEquals("2026-11-22T06:31:19", SlurmTime.formatTimestamp(t, ZoneId.of("Europe/Berlin")));
        assertEquals("N/A", SlurmTime.formatTimestamp(null, ZoneOffset.UTC));
    }

    @Test
    void seconds_isADurationOfWholeSeconds() {
        assertEquals(Duration.ofSeconds(30), SlurmTime.seconds(30));
    }
}
