package dev.gantry.common.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** sbatch --begin strings as Slurm's parse_time() reads them: https://slurm.schedmd.com/sbatch.html#OPT_begin. */
class SlurmDateTest {

    /** Sunday 2026-11-22 10:30:15 UTC. */
    private static final Instant NOW = Instant.parse("2026-11-22T10:30:15Z");

    private static Instant parse(String text) {
        return SlurmDate.parse(text, NOW, ZoneOffset.UTC);
    }

    @ParameterizedTest(name = "\"{0}\" = {1} ({2})")
    @CsvSource(delimiter = '|', value = {
        "16:00               | 2026-11-22T16:00:00 | a time still ahead is today",
        "09:00               | 2026-11-23T09:00:00 | a time already past is tomorrow",
        "10:30               | 2026-11-23T10:30:00 | the current minute counts as past",
        "10:31               | 2026-11-22T10:31:00 | the next minute is today",
        "9:05:30             | 2026-11-23T09:05:30 | one-digit hour and seconds",
        "4:00 PM             | 2026-11-22T16:00:00 | PM",
        "4:00pm              | 2026-11-22T16:00:00 | pm without a blank",
        "12:00 AM            | 2026-11-23T00:00:00 | 12 AM is midnight",
        "12:15 PM            | 2026-11-22T12:15:00 | 12 PM is noon",
        "11:00 am            | 2026-11-22T11:00:00 | am",
        "1225                | 2026-12-25T00:00:00 | MMDD: the next such day",
        "0101                | 2027-01-01T00:00:00 | MMDD already past this year is next year",
        "1122                | 2027-11-22T00:00:00 | today's midnight is past: next year",
        "122527              | 2027-12-25T00:00:00 | MMDDYY",
        "12/25               | 2026-12-25T00:00:00 | MM/DD",
        "12/25/28            | 2028-12-25T00:00:00 | MM/DD/YY",
        "12.25.28            | 2028-12-25T00:00:00 | MM.DD.YY",
        "3/1                 | 2027-03-01T00:00:00 | one-digit month",
        "12/25-13:45         | 2026-12-25T13:45:00 | MM/DD-HH:MM",
        "12/25/27-13:45:10   | 2027-12-25T13:45:10 | MM/DD/YY-HH:MM:SS",
        "2027-02-03          | 2027-02-03T00:00:00 | YYYY-MM-DD",
        "2027-02-03T04:05    | 2027-02-03T04:05:00 | YYYY-MM-DDTHH:MM",
        "2027-02-03T04:05:06 | 2027-02-03T04:05:06 | YYYY-MM-DDTHH:MM:SS",
        "2020-01-01          | 2020-01-01T00:00:00 | a past date is taken as given",
        "2027-02-31          | 2027-03-03T00:00:00 | day beyond the month rolls over as mktime",
        "now                 | 2026-11-22T10:30:15 | now",
        "now+60              | 2026-11-22T10:31:15 | seconds by default",
        "now+1hour           | 2026-11-22T11:30:15 | hour",
        "now+2hours          | 2026-11-22T12:30:15 | hours",
        "now+90minutes       | 2026-11-22T12:00:15 | minutes",
        "now+1minute         | 2026-11-22T10:31:15 | minute",
        "now+30seconds       | 2026-11-22T10:30:45 | seconds",
        "now+1second         | 2026-11-22T10:30:16 | second",
        "now+1day            | 2026-11-23T10:30:15 | day",
        "now+3days           | 2026-11-25T10:30:15 | days",
        "now+1week           | 2026-11-29T10:30:15 | week",
        "now+2weeks          | 2026-12-06T10:30:15 | weeks",
        "NOW+1HOUR           | 2026-11-22T11:30:15 | words are case-insensitive",
        "now-1hour           | 2026-11-22T09:30:15 | a negative offset",
        "now + 5 minutes     | 2026-11-22T10:35:15 | blanks inside",
        "today               | 2026-11-22T00:00:00 | today is a date: its midnight",
        "tomorrow            | 2026-11-23T00:00:00 | tomorrow",
        "midnight            | 2026-11-23T00:00:00 | the next midnight",
        "noon                | 2026-11-22T12:00:00 | noon still ahead",
        "elevenses           | 2026-11-22T11:00:00 | elevenses",
        "fika                | 2026-11-22T15:00:00 | fika",
        "teatime             | 2026-11-22T16:00:00 | teatime",
        "tomorrow noon       | 2026-11-23T12:00:00 | a date and a time word",
        "today 16:00         | 2026-11-22T16:00:00 | today with a time",
        "today 09:00         | 2026-11-22T09:00:00 | today with a past time stays today",
        "uts1800000000       | 2027-01-15T08:00:00 | seconds since the epoch",
    })
    void parse_everyDocumentedForm(String text, String expected, String form) {
        assertEquals(LocalDateTime.parse(expected).toInstant(ZoneOffset.UTC), parse(text), form);
    }

    @ParameterizedTest(name = "\"{0}\" is refused at position {1}")
    @CsvSource(delimiter = '|', value = {
        "''            | 0",
        "'   '         | 3",
        "yesterday     | 0",
        "24:00         | 0",
        "12:60         | 3",
        "12:5          | 4",
        "12:30:61      | 6",
        "1:00 PMX      | 7",
        "13:00 PM      | 6",
        "13:00 AM      | 6",
        "1332          | 0",
        "1200          | 2",
        "12/32         | 3",
        "12/25/2       | 7",
        "2027-13-01    | 5",
        "2027-02-00    | 8",
        "20x7-02-03    | 2",
        "now+          | 3",
        "now+5fortnights | 4",
        "now later     | 4",
        "uts12         | 3",
        "utsabc        | 3",
        "16:00 teatimes | 13",
        "12:00x        | 5",
    })
    void parse_refusesMalformedStrings_withSlurmsMessage(String text, int pos) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(text));
        assertEquals("Invalid time specification (pos=" + pos + "): " + text, e.getMessage());
    }

    @Test
    void parse_ofNullIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SlurmDate.parse(null, NOW, ZoneOffset.UTC));
    }

    @Test
    void parse_readsLocalTimesInTheGivenZone() {
        ZoneId berlin = ZoneId.of("Europe/Berlin"); // UTC+1 in November: now is 11:30:15 there
        assertEquals(Instant.parse("2026-11-22T15:00:00Z"), SlurmDate.parse("16:00", NOW, berlin));
        assertEquals(Instant.parse("2026-11-23T10:00:00Z"), SlurmDate.parse("11:00", NOW, berlin), "11:00 is past there");
        assertEquals(Instant.parse("2026-11-22T23:00:00Z"), SlurmDate.parse("midnight", NOW, berlin));
    }

    @Test
    void parse_aTimeInADaylightSavingGapMovesForward() {
        ZoneId berlin = ZoneId.of("Europe/Berlin"); // 2027-03-28 02:00 → 03:00
        assertEquals(Instant.parse("2027-03-28T01:30:00Z"), SlurmDate.parse("2027-03-28T02:30", NOW, berlin));
    }
}
