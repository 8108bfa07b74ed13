package dev.gantry.cli.sprio;

import dev.gantry.cli.model.PriorityInfo;
import dev.gantry.cli.model.PriorityWeightsInfo;
import dev.gantry.cli.text.FormatItems;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sprio {@code -o} field codes, with Slurm's headers and print rules (src/sprio/print.c): weighted factors print
 * as whole numbers ({@code %.0f}), normalized ones (the factor divided by its weight) with seven decimals; the
 * weights row of {@code -w} prints each factor's weight, "Weights" as the job id and blanks elsewhere. A job whose
 * priority an administrator set prints 0 for every factor.
 */
public enum PriorityField implements FormatItems.Type {
    JOB_ID('i', "JOBID"),
    PARTITION_NAME('r', "PARTITION"),
    USER('u', "USER"),
    ACCOUNT('o', "ACCOUNT"),
    PRIORITY('Y', "PRIORITY"),
    PRIORITY_NORMALIZED('y', "PRIORITY"),
    SITE('S', "SITE"),
    AGE('A', "AGE"),
    AGE_NORMALIZED('a', "AGE"),
    FAIRSHARE('F', "FAIRSHARE"),
    FAIRSHARE_NORMALIZED('f', "FAIRSHARE"),
    JOB_SIZE('J', "JOBSIZE"),
    JOB_SIZE_NORMALIZED('j', "JOBSIZE"),
    PARTITION('P', "PARTITION"),
    PARTITION_NORMALIZED('p', "PARTITION"),
    QOS_NAME('n', "QOSNAME"),
    QOS('Q', "QOS"),
    QOS_NORMALIZED('q', "QOS"),
    NICE('N', "NICE"),
    TRES('T', "TRES"),
    TRES_NORMALIZED('t', "TRES");

    private final char code;
    private final String header;

    PriorityField(char code, String header) {
        this.code = code;
        this.header = header;
    }

    @Override
    public char code() {
        return code;
    }

    public String header() {
        return header;
    }

    /** The text for one job. */
    public String value(PriorityInfo p, PriorityWeightsInfo w) {
        boolean fixed = p.adminSet();
        return switch (this) {
            case JOB_ID -> Long.toString(p.jobId());
            case PARTITION_NAME -> p.partition();
            case USER -> p.user();
            case ACCOUNT -> p.account();
            case PRIORITY -> Long.toUnsignedString(p.priority());
            case PRIORITY_NORMALIZED -> String.format(Locale.ROOT, "%16.14f", p.priority() / 4294967295.0);
            case SITE -> whole(fixed ? 0 : p.site());
            case AGE -> whole(fixed ? 0 : p.age());
            case AGE_NORMALIZED -> fixed ? "0" : normalized(p.age(), w.age());
            case FAIRSHARE -> whole(fixed ? 0 : p.fairshare());
            case FAIRSHARE_NORMALIZED -> fixed ? "0" : normalized(p.fairshare(), w.fairshare());
            case JOB_SIZE -> whole(fixed ? 0 : p.jobSize());
            case JOB_SIZE_NORMALIZED -> fixed ? "0" : normalized(p.jobSize(), w.jobSize());
            case PARTITION -> whole(fixed ? 0 : p.partitionFactor());
            case PARTITION_NORMALIZED -> fixed ? "0" : normalized(p.partitionFactor(), w.partition());
            case QOS_NAME -> p.qos();
            case QOS -> whole(fixed ? 0 : p.qosFactor());
            case QOS_NORMALIZED -> fixed ? "0" : normalized(p.qosFactor(), w.qos());
            case NICE -> fixed ? "0" : Long.toString(p.nice());
            case TRES -> fixed ? "" : tres(p.tres(), null);
            case TRES_NORMALIZED -> fixed ? "" : tres(p.tres(), w.tres());
        };
    }

    /** The text on the -w weights row. */
    public String weight(PriorityWeightsInfo w) {
        return switch (this) {
            case JOB_ID -> "Weights";
            case SITE -> "1";
            case AGE, AGE_NORMALIZED -> Long.toString(w.age());
            case FAIRSHARE, FAIRSHARE_NORMALIZED -> Long.toString(w.fairshare());
            case JOB_SIZE, JOB_SIZE_NORMALIZED -> Long.toString(w.jobSize());
            case PARTITION, PARTITION_NORMALIZED -> Long.toString(w.partition());
            case QOS, QOS_NORMALIZED -> Long.toString(w.qos());
            case TRES, TRES_NORMALIZED -> tresWeights(w.tres());
            default -> "";
        };
    }

    private static String whole(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String normalized(double weighted, long weight) {
        return String.format(Locale.ROOT, "%.7f", weight == 0 ? 0.0 : weighted / weight);
    }

    /** {@code cpu=12,mem=3} (weighted, whole) or {@code cpu=0.50,mem=0.10} (normalized by each weight). */
    private static String tres(Map<String, Double> terms, Map<String, Double> weights) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Double> e : new TreeMap<>(terms).entrySet()) {
            if (e.getValue() == 0) {
                continue;
            }
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(e.getKey()).append('=');
            if (weights == null) {
                b.append(whole(e.getValue()));
            } else {
                double weight = weights.getOrDefault(e.getKey(), 0.0);
                b.append(String.format(Locale.ROOT, "%.2f", weight == 0 ? 0.0 : e.getValue() / weight));
            }
        }
        return b.toString();
    }

    private static String tresWeights(Map<String, Double> weights) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Double> e : new TreeMap<>(weights).entrySet()) {
            if (!b.isEmpty()) {
                b.append(',');
            }
            double v = e.getValue();
            b.append(e.getKey()).append('=').append(v == Math.rint(v) ? whole(v) : Double.toString(v));
        }
        return b.toString();
    }
}
