package dev.gantry.common.units;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;

/**
 * Slurm's date strings (sbatch --begin, scontrol update StartTime=), parsed as Slurm's {@code parse_time()} does
 * (src/common/parse_time.c; https://slurm.schedmd.com/sbatch.html#OPT_begin):
 * <ul>
 *   <li>{@code HH:MM[:SS] [AM|PM]}: the next such time (today if still ahead, else tomorrow);</li>
 *   <li>{@code MMDD[YY]}, {@code MM/DD[/YY]}, {@code MM.DD[.YY]}: that day at 00:00 (without a year: the next such
 *       day, this year or next); {@code MM/DD[/YY]-HH:MM[:SS]} with a time;</li>
 *   <li>{@code YYYY-MM-DD[THH:MM[:SS]]};</li>
 *   <li>{@code now[{+|-}count[seconds|minutes|hours|days|weeks]]} (seconds by default);</li>
 *   <li>{@code today}, {@code tomorrow} (a date), {@code midnight}, {@code noon}, {@code elevenses} (11:00),
 *       {@code fika} (15:00), {@code teatime} (16:00) (a time), combinable as in {@code tomorrow noon};</li>
 *   <li>{@code uts<seconds since the epoch>}.</li>
 * </ul>
 * Words are case-insensitive. A day of month beyond the month's end rolls over as mktime does (02/31 = 03/03).
 * Pure and thread-safe: the present comes in as {@code now}, local dates in {@code zone}.
 */
public final class SlurmDate {

    private SlurmDate() {}

    private record Unit(String name, long seconds) {}

    // Longest names first, as Slurm's table: "minutes" before "minute".
    private static final Unit[] UNITS = {
        new Unit("seconds", 1), new Unit("second", 1), new Unit("minutes", 60), new Unit("minute", 60),
        new Unit("hours", 3600), new Unit("hour", 3600), new Unit("days", 86400), new Unit("day", 86400),
        new Unit("weeks", 604800), new Unit("week", 604800)};

    /**
     * Parses a date string into an instant, looking forward from {@code now} for the fields left out.
     *
     * @throws IllegalArgumentException "Invalid time specification (pos=N): text" as Slurm prints it, for a
     *         malformed string and for one that names no date or time at all (Slurm's 0)
     */
    public static Instant parse(String text, Instant now, ZoneId zone) {
        return new Parse(text == null ? "" : text, now, zone).run();
    }

    /** Mutable state of one parse; confined to one call. */
    private static final class Parse {
        private final String s;
        private final Instant now;
        private final ZoneId zone;
        private final LocalDateTime nowLocal;
        private int pos;
        private int hour = -1;
        private int minute = -1;
        private int second;
        private int month = -1; // 1..12
        private int mday = -1;
        private int year = -1; // full year

        Parse(String s, Instant now, ZoneId zone) {
            this.s = s;
            this.now = now;
            this.zone = zone;
            this.nowLocal = LocalDateTime.ofInstant(now, zone);
        }

        private char at(int i) {
            return i < s.length() ? s.charAt(i) : '\0';
        }

        private boolean digit(int i) {
            char c = at(i);
            return c >= '0' && c <= '9';
        }

        private boolean word(String w) {
            return s.regionMatches(true, pos, w, 0, w.length());
        }

        Instant run() {
            if (s.regionMatches(true, 0, "uts", 0, 3)) {
                return epoch();
            }
            for (pos = 0; pos < s.length() && at(pos) != '\n'; pos++) {
                char c = at(pos);
                if (c == ' ' || c == '\t' || c == '-' || c == 'T') {
                    continue;
                }
                if (word("today")) {
                    setDate(nowLocal.toLocalDate());
                    pos += 4;
                } else if (word("tomorrow")) {
                    setDate(LocalDateTime.ofInstant(now.plusSeconds(86400), zone).toLocalDate());
                    pos += 7;
                } else if (word("midnight")) {
                    setTime(0, 8);
                } else if (word("noon")) {
                    setTime(12, 4);
                } else if (word("elevenses")) {
                    setTime(11, 9);
                } else if (word("fika")) {
                    setTime(15, 4);
                } else if (word("teatime")) {
                    setTime(16, 7);
                } else if (word("now")) {
                    relativeToNow();
                } else if (c < '0' || c > '9') {
                    throw problem();
                } else if (at(pos + 1) == ':' || at(pos + 2) == ':') {
                    clock();
                } else {
                    date();
                }
            }
            return resolve();
        }

        private Instant epoch() {
            String digits = s.substring(3);
            if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                pos = 3;
                throw problem();
            }
            long uts = Long.parseLong(digits);
            if (uts < 1_000_000) {
                pos = 3;
                throw problem();
            }
            return Instant.ofEpochSecond(uts);
        }

        private void setDate(LocalDate d) {
            month = d.getMonthValue();
            mday = d.getDayOfMonth();
            year = d.getYear();
        }

        private void setTime(int h, int wordLength) {
            hour = h;
            minute = 0;
            second = 0;
            pos += wordLength - 1;
        }

        /** {@code now[{+|-}count[unit]]}; blanks may separate "now" from the sign. */
        private void relativeToNow() {
            long delta = 0;
            int i = pos + 3;
            while (true) {
                char c = at(i);
                if (c == '+' || c == '-') {
                    pos = i;
                    delta = delta();
                    if (c == '-') {
                        delta = -delta;
                    }
                    break;
                }
                if (c == ' ' || c == '\t') {
                    i++;
                    continue;
                }
                if (i >= s.length() || c == '\n') {
                    pos = i - 1;
                    break;
                }
                pos = i;
                throw problem();
            }
            LocalDateTime later = LocalDateTime.ofInstant(now.plusSeconds(delta), zone);
            setDate(later.toLocalDate());
            hour = later.getHour();
            minute = later.getMinute();
            second = later.getSecond();
        }

        /** The count and unit after the sign at {@code pos}; leaves {@code pos} on its last character. */
        private long delta() {
            long count = 0;
            int digits = 0;
            int offset = pos + 1;
            scan:
            for (; offset < s.length() && at(offset) != '\n'; offset++) {
                char c = at(offset);
                if (c == ' ' || c == '\t') {
                    continue;
                }
                for (Unit u : UNITS) {
                    if (s.regionMatches(true, offset, u.name(), 0, u.name().length())) {
                        offset += u.name().length();
                        count = Math.multiplyExact(count, u.seconds());
                        break scan;
                    }
                }
                if (c >= '0' && c <= '9') {
                    if (++digits > 12) {
                        pos = offset;
                        throw problem();
                    }
                    count = count * 10 + (c - '0');
                    continue;
                }
                pos = offset - 1;
                throw problem();
            }
            if (digits == 0) {
                throw problem();
            }
            pos = offset - 1;
            return count;
        }

        /** {@code HH:MM[:SS] [AM|PM]}. */
        private void clock() {
            int o = pos;
            int hr = at(o++) - '0';
            if (at(o) != ':') {
                if (!digit(o)) {
                    throw problemAt(o);
                }
                hr = hr * 10 + at(o++) - '0';
            }
            if (hr > 23) {
                throw problemAt(o - 2);
            }
            if (at(o) != ':') {
                throw problemAt(o);
            }
            o++;
            int[] mm = twoDigits(o, 59);
            int min = mm[0];
            o = mm[1];
            int sec = 0;
            if (at(o) == ':') {
                int[] ss = twoDigits(o + 1, 59);
                sec = ss[0];
                o = ss[1];
            }
            while (at(o) == ' ' || at(o) == '\t') {
                o++;
            }
            if (s.regionMatches(true, o, "pm", 0, 2)) {
                hr += 12;
                if (hr > 23) {
                    if (hr != 24) {
                        throw problemAt(o);
                    }
                    hr = 12;
                }
                o += 2;
            } else if (s.regionMatches(true, o, "am", 0, 2)) {
                if (hr > 11) {
                    if (hr != 12) {
                        throw problemAt(o);
                    }
                    hr = 0;
                }
                o += 2;
            }
            pos = o - 1;
            hour = hr;
            minute = min;
            second = sec;
        }

        /** Exactly two digits at {@code o}, at most {@code max}; returns {value, offset after}. */
        private int[] twoDigits(int o, int max) {
            if (!digit(o) || !digit(o + 1)) {
                throw problemAt(digit(o) ? o + 1 : o);
            }
            int v = (at(o) - '0') * 10 + (at(o + 1) - '0');
            if (v > max) {
                throw problemAt(o);
            }
            return new int[] {v, o + 2};
        }

        /** {@code YYYY-MM-DD}, or {@code MMDD[YY]} / {@code MM/DD[/YY]} / {@code MM.DD[.YY]}. */
        private void date() {
            int o = pos;
            if (s.length() >= o + 7 && at(o + 4) == '-' && at(o + 7) == '-') {
                int yr = 0;
                for (int k = 0; k < 4; k++, o++) {
                    if (!digit(o)) {
                        throw problemAt(o);
                    }
                    yr = yr * 10 + at(o) - '0';
                }
                o++; // '-'
                int[] m = oneOrTwoDigits(o, 1, 12);
                o = m[1] + 1; // '-'
                int[] d = oneOrTwoDigits(o, 1, 31);
                pos = d[1] - 1;
                month = m[0];
                mday = d[0];
                year = yr;
                return;
            }
            int[] m = oneOrTwoDigits(o, 1, 12);
            o = m[1];
            if (at(o) == '.' || at(o) == '/') {
                o++;
            }
            int[] d = oneOrTwoDigits(o, 1, 31);
            o = d[1];
            if (at(o) == '.' || at(o) == '/') {
                o++;
            }
            int yr = 0;
            if (digit(o)) {
                if (!digit(o + 1)) {
                    throw problemAt(o + 1);
                }
                yr = (at(o) - '0') * 10 + (at(o + 1) - '0');
                o += 2;
            }
            pos = o - 1;
            month = m[0];
            mday = d[0];
            if (yr != 0) { // Slurm reads a two-digit year 00 as "no year"
                year = 2000 + yr;
            }
        }

        /** One or two digits at {@code o} within [min, max]; returns {value, offset after}. */
        private int[] oneOrTwoDigits(int o, int min, int max) {
            if (!digit(o)) {
                throw problemAt(o);
            }
            int v = at(o++) - '0';
            if (digit(o)) {
                v = v * 10 + at(o++) - '0';
            }
            if (v < min || v > max) {
                throw problemAt(o - 2);
            }
            return new int[] {v, o};
        }

        private Instant resolve() {
            if (hour == -1 && month == -1) {
                throw problemAt(pos); // nothing specified: Slurm's 0, an invalid --begin
            }
            if (hour == -1) {
                hour = 0; // a date without a time is its midnight
                minute = 0;
            } else if (month == -1) {
                // A time without a date: today if still ahead, else tomorrow.
                boolean ahead = hour > nowLocal.getHour()
                        || (hour == nowLocal.getHour() && minute > nowLocal.getMinute());
                setDate(ahead ? nowLocal.toLocalDate()
                        : LocalDateTime.ofInstant(now.plusSeconds(86400), zone).toLocalDate());
            }
            if (year == -1) {
                int nm = nowLocal.getMonthValue();
                int nd = nowLocal.getDayOfMonth();
                boolean thisYear = month > nm
                        || (month == nm && mday > nd)
                        || (month == nm && mday == nd && hour > nowLocal.getHour())
                        || (month == nm && mday == nd && hour == nowLocal.getHour() && minute > nowLocal.getMinute());
                year = nowLocal.getYear() + (thisYear ? 0 : 1);
            }
            try {
                LocalDateTime local = LocalDate.of(year, month, 1).plusDays(mday - 1L).atTime(hour, minute, second);
                return ZonedDateTime.of(local, zone).toInstant();
            } catch (DateTimeException e) {
                throw problemAt(pos);
            }
        }

        private IllegalArgumentException problem() {
            return problemAt(pos);
        }

        private IllegalArgumentException problemAt(int p) {
            return new IllegalArgumentException(String.format(Locale.ROOT,
                    "Invalid time specification (pos=%d): %s", Math.max(0, p), s));
        }
    }
}
