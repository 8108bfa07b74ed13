package dev.gantry.cli.sshare;

import dev.gantry.cli.model.ShareInfo;
import dev.gantry.cli.model.UsageInfo;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * sshare's columns (src/sshare/process.c) with their print widths (negative: left-justified), and Gantry's two
 * extra columns for sshare -l: the further usage that would halve a user's fair-share factor, and that would make it
 * 0 ("never" for the classic form), each as alternatives in CPU-hours, GPU-hours or GiB-hours of memory.
 */
public enum ShareField {
    ACCOUNT("Account", -20),
    USER("User", 10),
    RAW_SHARES("RawShares", 10),
    NORM_SHARES("NormShares", 11),
    RAW_USAGE("RawUsage", 11),
    NORM_USAGE("NormUsage", 11),
    EFFECTIVE_USAGE("EffectvUsage", 13),
    FAIRSHARE("FairShare", 10),
    GRP_TRES_MINS("GrpTRESMins", 30),
    TRES_RUN_MINS("TRESRunMins", 30),
    USAGE_TO_HALVE("UsageToHalve", 30),
    USAGE_TO_ZERO("UsageToZero", 30);

    private final String header;
    private final int width;

    ShareField(String header, int width) {
        this.header = header;
        this.width = width;
    }

    public String header() {
        return header;
    }

    /** Print width; negative means left-justified (Slurm's print_field_t len). */
    public int width() {
        return width;
    }

    /** Whether the value is a number printed as Slurm's print_fields_double does. */
    boolean isDouble() {
        return this == NORM_SHARES || this == NORM_USAGE || this == EFFECTIVE_USAGE || this == FAIRSHARE;
    }

    /** The raw text (doubles unformatted: see {@link #number}). */
    String text(ShareInfo r) {
        return switch (this) {
            case ACCOUNT -> " ".repeat(Math.max(0, r.depth())) + r.account();
            case USER -> r.user();
            case RAW_SHARES -> Long.toString(r.rawShares());
            case RAW_USAGE -> String.format(Locale.ROOT, "%.0f", Math.floor(r.rawUsage()));
            case GRP_TRES_MINS -> "";
            case TRES_RUN_MINS -> tresMinutes(r.tresRawUsage());
            case USAGE_TO_HALVE -> r.user().isEmpty() ? "" : amount(r.usageToHalve());
            case USAGE_TO_ZERO -> r.user().isEmpty() ? "" : amount(r.usageToZero());
            default -> String.format(Locale.ROOT, "%f", number(r));
        };
    }

    double number(ShareInfo r) {
        return switch (this) {
            case NORM_SHARES -> r.normShares();
            case NORM_USAGE -> r.normUsage();
            case EFFECTIVE_USAGE -> r.effectiveUsage();
            case FAIRSHARE -> r.fairshare();
            default -> throw new IllegalStateException(name());
        };
    }

    /** Decayed usage per TRES, in minutes as Slurm prints TRES minutes: {@code cpu=90,mem=1200}. */
    private static String tresMinutes(Map<String, Double> seconds) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Double> e : new TreeMap<>(seconds).entrySet()) {
            long minutes = (long) Math.floor(e.getValue() / 60);
            if (minutes == 0) {
                continue;
            }
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(e.getKey()).append('=').append(minutes);
        }
        return b.toString();
    }

    /** {@code cpu=12.5h,gpu=3.1h,mem=400.0GBh}: any one of them alone; "never" when no amount does it. */
    static String amount(UsageInfo a) {
        if (a.never()) {
            return "never";
        }
        StringBuilder b = new StringBuilder();
        append(b, "cpu=", a.cpuHours(), "h");
        append(b, "gpu=", a.gpuHours(), "h");
        append(b, "mem=", a.gbHours(), "GBh");
        return b.toString();
    }

    private static void append(StringBuilder b, String key, double value, String unit) {
        if (value <= 0) {
            return;
        }
        if (!b.isEmpty()) {
            b.append(',');
        }
        b.append(key).append(String.format(Locale.ROOT, "%.1f", value)).append(unit);
    }
}
