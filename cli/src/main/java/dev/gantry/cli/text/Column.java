package dev.gantry.cli.text;

/**
 * One field of a squeue or sinfo line, printed the way Slurm's {@code _print_str} does it
 * (src/squeue/print.c, src/sinfo/print.c).
 *
 * <ul>
 *   <li>width 0: the value as it is, no padding, no truncation;</li>
 *   <li>left-justified ({@code %10M}): the value cut to {@code width} characters, then padded with spaces;</li>
 *   <li>right-justified ({@code %.10M}): padded on the left to {@code width}; a longer value keeps its first
 *       {@code width} characters when the field is cut, and is printed whole when it is not.</li>
 * </ul>
 * Which fields are cut is Slurm's choice per field (node lists and durations are not, names are).
 *
 * @param width minimum (and, when cut, maximum) characters; 0 for "as wide as the value"
 * @param rightJustified true for the {@code %.N} form
 */
public record Column(int width, boolean rightJustified) {

    public Column {
        if (width < 0) {
            throw new IllegalArgumentException("width must be >= 0: " + width);
        }
    }

    /** Renders {@code value} (null prints as Slurm's "(null)") into this column. */
    public String render(String value, boolean cut) {
        String v = value == null ? "(null)" : value;
        if (width == 0) {
            return v;
        }
        if (rightJustified) {
            String padded = v.length() >= width ? v : " ".repeat(width - v.length()) + v;
            return cut && padded.length() > width ? padded.substring(0, width) : padded;
        }
        // "%.Ns" always truncates, whether or not the field asked for it.
        String truncated = v.length() > width ? v.substring(0, width) : v;
        return truncated + " ".repeat(width - truncated.length());
    }
}
