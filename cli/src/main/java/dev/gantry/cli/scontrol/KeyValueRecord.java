package dev.gantry.cli.scontrol;

/**
 * The text of one scontrol record: Key=Value pairs, first line unindented, each further line indented three
 * spaces (or, one-liner, everything on one line separated by spaces), ended by a blank line (one-liner: by
 * a newline). Mirrors the {@code line_end} convention of Slurm's slurm_sprint_* functions.
 */
final class KeyValueRecord {

    private final StringBuilder out = new StringBuilder();
    private final String lineEnd;
    private final boolean oneLiner;

    KeyValueRecord(boolean oneLiner) {
        this.oneLiner = oneLiner;
        this.lineEnd = oneLiner ? " " : "\n   ";
    }

    /** Appends text to the current line. */
    KeyValueRecord add(String text) {
        out.append(text);
        return this;
    }

    /** Ends the current line. */
    KeyValueRecord newLine() {
        out.append(lineEnd);
        return this;
    }

    /** The finished record, with its terminating newline(s). */
    String end() {
        return out + (oneLiner ? "\n" : "\n\n");
    }

    /** Slurm prints a missing string as "(null)". */
    static String orNull(String value) {
        return value == null || value.isEmpty() ? "(null)" : value;
    }
}
