package dev.gantry.cli.sprio;

import dev.gantry.cli.model.PriorityInfo;
import dev.gantry.cli.model.PriorityWeightsInfo;
import dev.gantry.cli.text.Column;
import dev.gantry.cli.text.FormatItems;
import java.util.ArrayList;
import java.util.List;

/**
 * sprio's output (https://slurm.schedmd.com/sprio.html): a header (unless -h), then one line per pending job, or
 * with -w the weights row instead. Formats are Slurm's "%[.][size]type" items; the defaults drop the factors whose
 * weight is 0, as sprio does.
 *
 * @param items the parsed format
 * @param header whether to print the header
 */
public record PriorityReport(List<Item> items, boolean header) {

    /** A field in a column followed by its suffix, or a literal (field null). */
    public record Item(PriorityField field, Column column, String text) {}

    public PriorityReport {
        items = List.copyOf(items);
    }

    /** sprio -l: "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10F %.10J %.10P %.10n %.10Q %.11N %.20T". */
    public static final String LONG = "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10F %.10J %.10P %.10n %.10Q %.11N %.20T";

    /** sprio -l -n. */
    public static final String LONG_NORMALIZED =
            "%.15i %9r %.8u %.8o %10y %10S %10a %10f %10j %10p %.10n %10q %.11N %20t";

    /**
     * sprio's default: job id, (user with -u), partition, priority and site, then each factor with a non-zero
     * weight; -n prints the factors normalized.
     */
    public static String defaultFormat(PriorityWeightsInfo w, boolean withUser, boolean normalized) {
        StringBuilder f = new StringBuilder("%.15i");
        if (withUser) {
            f.append(" %.8u");
        }
        f.append(normalized ? " %9r %10y %10S" : " %9r %.10Y %.10S");
        String[][] factors = {{"A", Long.toString(w.age())}, {"F", Long.toString(w.fairshare())},
            {"J", Long.toString(w.jobSize())}, {"P", Long.toString(w.partition())}, {"Q", Long.toString(w.qos())}};
        for (String[] factor : factors) {
            if (!factor[1].equals("0")) {
                f.append(normalized ? " %10" + factor[0].toLowerCase() : " %.10" + factor[0]);
            }
        }
        if (!w.tres().isEmpty()) {
            f.append(normalized ? " %20t" : " %20T");
        }
        return f.toString();
    }

    /**
     * Parses a format; an unknown letter is refused.
     *
     * @throws IllegalArgumentException "Invalid job format specification: X"
     */
    public static PriorityReport parse(String format, boolean header) {
        List<Item> items = new ArrayList<>();
        FormatItems parsed = FormatItems.parse(format, 10_000);
        if (parsed.prefix() != null) {
            items.add(new Item(null, null, parsed.prefix()));
        }
        for (FormatItems.Spec spec : parsed.items()) {
            PriorityField field = spec.typeOf(PriorityField.values());
            if (field == null) {
                throw new IllegalArgumentException("Invalid job format specification: "
                        + (spec.hasType() ? spec.type() : spec.text()));
            }
            items.add(new Item(field, spec.column(), spec.suffix()));
        }
        return new PriorityReport(items, header);
    }

    /** The lines to print: the header, then each job's, or the weights row when {@code weightsOnly}. */
    public List<String> lines(List<PriorityInfo> jobs, PriorityWeightsInfo weights, boolean weightsOnly) {
        List<String> out = new ArrayList<>();
        if (header) {
            out.add(line(f -> f.header()));
        }
        if (weightsOnly) {
            out.add(line(f -> f.weight(weights)));
            return out;
        }
        for (PriorityInfo p : jobs) {
            out.add(line(f -> f.value(p, weights)));
        }
        return out;
    }

    private String line(java.util.function.Function<PriorityField, String> value) {
        StringBuilder b = new StringBuilder();
        for (Item item : items) {
            if (item.field() == null) {
                b.append(item.text());
            } else {
                b.append(item.column().render(value.apply(item.field()), true)).append(item.text());
            }
        }
        return b.toString();
    }
}
