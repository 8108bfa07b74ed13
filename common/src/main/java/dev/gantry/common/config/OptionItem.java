package dev.gantry.common.config;

import java.util.Locale;

/**
 * One item of a comma-separated option list such as SchedulerParameters=bf_window=60,bf_continue: its lower-case
 * name and its value (null without {@code =}). Numbers are checked against a range and refused naming the item.
 */
record OptionItem(String text, String name, String value) {

    static OptionItem of(String raw) {
        String item = raw.trim();
        int eq = item.indexOf('=');
        String name = (eq < 0 ? item : item.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
        return new OptionItem(item, name, eq < 0 ? null : item.substring(eq + 1).trim());
    }

    /** @throws IllegalArgumentException "bf_window=x: 'x' is not a whole number", "…: must be between 1 and 43200" */
    long number(long min, long max) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(text + ": needs a value");
        }
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(text + ": '" + value + "' is not a whole number");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(text + ": must be between " + min + " and " + max);
        }
        return v;
    }
}
