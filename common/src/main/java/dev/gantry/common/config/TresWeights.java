package dev.gantry.common.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Weights per TRES, as Slurm's TRESBillingWeights and PriorityWeightTRES are written:
 * {@code CPU=1.0,Mem=0.152G,GRES/gpu=250} (https://slurm.schedmd.com/slurm.conf.html#OPT_TRESBillingWeights).
 * Names are case-insensitive and kept in lower case: {@code cpu}, {@code mem}, {@code node}, {@code gres/<name>}.
 *
 * <p>Memory weights are stored <b>per MiB</b>: a bare number is per MB (Slurm's default memory unit) and a K, M, G or
 * T suffix says which unit the weight is per, so {@code Mem=0.25G} is 0.25 per GiB = 0.25/1024 per MiB. Other TRES
 * take no suffix. Weights are finite and not negative. Immutable.
 *
 * @param weights weight by lower-case TRES name; memory per MiB
 */
public record TresWeights(Map<String, Double> weights) {

    /** No weights. */
    public static final TresWeights NONE = new TresWeights(Map.of());

    public TresWeights {
        weights = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(weights));
    }

    /** The weight of a TRES by its lower-case name (memory per MiB); 0 when not given. */
    public double weight(String tres) {
        return weights.getOrDefault(tres, 0.0);
    }

    /** The memory weight per GiB (what {@code Mem=…G} said). */
    public double memPerGb() {
        return weight("mem") * 1024;
    }

    public boolean isEmpty() {
        return weights.isEmpty();
    }

    /**
     * Parses {@code Name=weight[,Name=weight…]}; an empty string gives {@link #NONE}.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static TresWeights parse(String raw) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String text : Values.list(raw)) {
            TresItem item = TresItem.of(text, "weight");
            if (out.put(item.name(), weight(item)) != null) {
                throw new IllegalArgumentException("'" + item.name() + "' is given twice");
            }
        }
        return new TresWeights(out);
    }

    /** An item's weight per unit: per MiB for memory, whose weight may name its unit (Mem=1G: 1/1024 per MiB). */
    private static double weight(TresItem item) {
        String value = item.value();
        double perUnit = 1;
        if (value.length() > 1 && Character.isLetter(value.charAt(value.length() - 1))
                && (Character.isDigit(value.charAt(value.length() - 2)) || value.charAt(value.length() - 2) == '.')) {
            char unit = Character.toUpperCase(value.charAt(value.length() - 1));
            if (!item.name().equals("mem")) {
                throw new IllegalArgumentException("'" + item.text() + "': only Mem takes a unit suffix");
            }
            perUnit = switch (unit) {
                case 'K' -> 1.0 / 1024;
                case 'M' -> 1;
                case 'G' -> 1024;
                case 'T' -> 1024.0 * 1024;
                default -> throw new IllegalArgumentException("'" + item.text() + "': unit must be K, M, G or T");
            };
            value = value.substring(0, value.length() - 1);
        }
        double w;
        try {
            w = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + item.text() + "': '" + value + "' is not a number");
        }
        if (!Double.isFinite(w) || w < 0) {
            throw new IllegalArgumentException("'" + item.text() + "': a weight must be a finite number >= 0");
        }
        return w / perUnit;
    }
}
