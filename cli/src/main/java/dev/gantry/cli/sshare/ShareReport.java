package dev.gantry.cli.sshare;

import dev.gantry.cli.model.ShareInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * sshare's output, printed as Slurm's print_fields does it (src/common/print_fields.c): a header and a line of
 * dashes, then one line per row, every field followed by a space, strings longer than the column ending in '+';
 * or, parsable, fields separated by '|' (-p: also after the last one; -P: not).
 *
 * @param fields the columns
 * @param header whether to print the header (and dashes)
 * @param parsable 0: columns; 1: '|' after every field (-p); 2: '|' between fields (-P)
 */
public record ShareReport(List<ShareField> fields, boolean header, int parsable) {

    /** sshare's default columns. */
    public static final List<ShareField> DEFAULT = List.of(ShareField.ACCOUNT, ShareField.USER,
            ShareField.RAW_SHARES, ShareField.NORM_SHARES, ShareField.RAW_USAGE, ShareField.EFFECTIVE_USAGE,
            ShareField.FAIRSHARE);

    /** sshare -l: adds NormUsage, GrpTRESMins, TRESRunMins, and Gantry's UsageToHalve and UsageToZero. */
    public static final List<ShareField> LONG = List.of(ShareField.ACCOUNT, ShareField.USER,
            ShareField.RAW_SHARES, ShareField.NORM_SHARES, ShareField.RAW_USAGE, ShareField.NORM_USAGE,
            ShareField.EFFECTIVE_USAGE, ShareField.FAIRSHARE, ShareField.GRP_TRES_MINS, ShareField.TRES_RUN_MINS,
            ShareField.USAGE_TO_HALVE, ShareField.USAGE_TO_ZERO);

    public ShareReport {
        fields = List.copyOf(fields);
    }

    public List<String> lines(List<ShareInfo> rows) {
        List<String> out = new ArrayList<>();
        if (header) {
            out.add(line(fields.stream().map(ShareField::header).toList(), true));
            if (parsable == 0) {
                StringBuilder dashes = new StringBuilder();
                fields.forEach(f -> dashes.append("-".repeat(Math.abs(f.width()))).append(' '));
                out.add(dashes.toString());
            }
        }
        for (ShareInfo r : rows) {
            List<String> values = new ArrayList<>();
            for (ShareField f : fields) {
                values.add(parsable == 0 && f.isDouble() ? fit(f.number(r), Math.abs(f.width())) : f.text(r));
            }
            out.add(line(values, false));
        }
        return out;
    }

    private String line(List<String> values, boolean isHeader) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            String v = values.get(i);
            if (parsable != 0) {
                b.append(v);
                if (parsable == 1 || i < fields.size() - 1) {
                    b.append('|');
                }
                continue;
            }
            int width = Math.abs(fields.get(i).width());
            if (!isHeader && v.length() > width) {
                v = v.substring(0, width - 1) + "+";
            } else if (v.length() > width) {
                v = v.substring(0, width);
            }
            String pad = " ".repeat(width - v.length());
            b.append(fields.get(i).width() < 0 ? v + pad : pad + v).append(' ');
        }
        return b.toString();
    }

    /** A double in {@code width} characters: "%f" when it fits, else exponent form with fewer digits. */
    static String fit(double value, int width) {
        String s = String.format(Locale.ROOT, "%f", value);
        for (int precision = width; s.length() > width && precision >= 0; precision--) {
            s = String.format(Locale.ROOT, "%." + precision + "e", value);
        }
        return s;
    }
}
