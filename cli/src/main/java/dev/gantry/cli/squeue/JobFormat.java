package dev.gantry.cli.squeue;

import dev.gantry.cli.text.Column;
import dev.gantry.cli.text.FormatItems;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed squeue {@code -o} format: Slurm's "%[[.]size]type[suffix]" items, parsed as squeue's
 * {@code parse_format} does (src/squeue/opts.c). Text before the first '%' is printed as it is; the text
 * after a field letter up to the next '%' is that field's suffix; "%%" is not an escape (empty items are
 * skipped). An unknown letter is reported once and its whole item, '%' included, is printed literally.
 *
 * @param items what each line prints, in order
 * @param unknownCodes letters Slurm would report as "Invalid job format specification"
 */
public record JobFormat(List<Item> items, List<Character> unknownCodes) {

    /** squeue's default: "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R". */
    public static final String DEFAULT = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";

    /** squeue -l: "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R". */
    public static final String LONG = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";

    /** squeue --start: "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R". */
    public static final String START = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";

    public JobFormat {
        items = List.copyOf(items);
        unknownCodes = List.copyOf(unknownCodes);
    }

    /** One piece of a line. */
    public sealed interface Item permits Literal, FieldItem {}

    /** Text printed unchanged (a prefix, or an unknown item). */
    public record Literal(String text) implements Item {}

    /** A field in a column followed by its suffix. */
    public record FieldItem(JobField field, Column column, String suffix) implements Item {}

    /** Parses a format string. Never fails: unknown letters are collected in {@link #unknownCodes()}. */
    public static JobFormat parse(String format) {
        List<Item> items = new ArrayList<>();
        List<Character> unknown = new ArrayList<>();
        FormatItems parsed = FormatItems.parse(format, 100_000);
        if (parsed.prefix() != null) {
            items.add(new Literal(parsed.prefix()));
        }
        for (FormatItems.Spec spec : parsed.items()) {
            JobField field = spec.typeOf(JobField.values());
            if (field != null) {
                items.add(new FieldItem(field, spec.column(), spec.suffix()));
                continue;
            }
            if (spec.hasType()) {
                unknown.add(spec.type());
            }
            items.add(new Literal("%" + spec.text()));
        }
        return new JobFormat(items, unknown);
    }

    /** The header line (no newline). */
    public String header() {
        StringBuilder line = new StringBuilder();
        for (Item item : items) {
            switch (item) {
                case Literal l -> line.append(l.text());
                case FieldItem f -> line.append(f.column().render(f.field().header(), f.field().cutHeader()))
                        .append(f.suffix());
            }
        }
        return line.toString();
    }

    /** One job's line (no newline). */
    public String line(JobView view) {
        StringBuilder line = new StringBuilder();
        for (Item item : items) {
            switch (item) {
                case Literal l -> line.append(l.text());
                case FieldItem f -> line.append(f.column().render(f.field().value(view), f.field().cutValue(view.job())))
                        .append(f.suffix());
            }
        }
        return line.toString();
    }
}
