package dev.gantry.common.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Invariants of --begin strings for any present instant (UTC, so that no daylight-saving gap interferes). */
class SlurmDatePropertiesTest {

    @Property(tries = 500)
    void aTimeOfDayIsTheNextSuchMinute_withinADay(@ForAll @LongRange(min = 0, max = 4_000_000_000L) long nowSeconds,
                                                  @ForAll @IntRange(min = 0, max = 23) int hour,
                                                  @ForAll @IntRange(min = 0, max = 59) int minute) {
        Instant now = Instant.ofEpochSecond(nowSeconds);
        Instant at = SlurmDate.parse(String.format(Locale.ROOT, "%02d:%02d", hour, minute), now, ZoneOffset.UTC);
        LocalDateTime local = LocalDateTime.ofInstant(at, ZoneOffset.UTC);
        assertEquals(hour, local.getHour());
        assertEquals(minute, local.getMinute());
        assertTrue(at.isAfter(now.minusSeconds(60)) && !at.isAfter(now.plusSeconds(86400)), now + " -> " + at);
    }

    @Property(tries = 500)
    void nowPlusSecondsIsExact(@ForAll @LongRange(min = 0, max = 4_000_000_000L) long nowSeconds,
                               @ForAll @LongRange(min = 0, max = 100_000_000L) long delta) {
        Instant now = Instant.ofEpochSecond(nowSeconds);
        assertEquals(now.plusSeconds(delta), SlurmDate.parse("now+" + delta, now, ZoneOffset.UTC));
        assertEquals(now.plusSeconds(delta * 60), SlurmDate.parse("now+" + delta + "minutes", now, ZoneOffset.UTC));
    }

    @Property(tries = 500)
    void anIsoDateIsTakenAsGiven(@ForAll @LongRange(min = 0, max = 4_000_000_000L) long nowSeconds,
                                 @ForAll @LongRange(min = 946_684_800L, max = 4_000_000_000L) long atSeconds) {
        Instant at = Instant.ofEpochSecond(atSeconds);
        String iso = LocalDateTime.ofInstant(at, ZoneOffset.UTC).toString();
        if (iso.length() == 16) {
            iso += ":00"; // LocalDateTime omits zero seconds
        }
        assertEquals(at, SlurmDate.parse(iso, Instant.ofEpochSecond(nowSeconds), ZoneOffset.UTC));
    }
}
