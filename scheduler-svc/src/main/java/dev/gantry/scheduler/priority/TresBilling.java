package dev.gantry.scheduler.priority;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.TresWeights;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Billable TRES from TRESBillingWeights (https://slurm.schedmd.com/priority_multifactor.html#fairshare): the sum of
 * each TRES count times its weight (memory weights per MiB), or with PriorityFlags=MAX_TRES the largest of them.
 * Without weights a job is billed for its CPUs alone (Slurm's default).
 */
public record TresBilling(TresWeights weights, boolean maxTres) {

    /** Billing by CPUs only. */
    public static final TresBilling CPUS = new TresBilling(TresWeights.NONE, false);

    /** TRESBillingWeights and PriorityFlags=MAX_TRES of a config. */
    public static TresBilling of(ClusterConfig config) {
        return new TresBilling(config.get(Keys.TRES_BILLING_WEIGHTS), config.get(Keys.PRIORITY_FLAGS).contains("MAX_TRES"));
    }

    /** The billable TRES of an allocation (units per second of run time). */
    public double billing(TresAmount tres) {
        if (weights.isEmpty()) {
            return tres.cpus();
        }
        double sum = 0;
        double max = 0;
        for (Map.Entry<String, Double> w : weights.weights().entrySet()) {
            double v = tres.count(w.getKey()) * w.getValue();
            sum += v;
            max = Math.max(max, v);
        }
        return maxTres ? max : sum;
    }

    /** The billing of one unit of a TRES alone (per CPU, per MiB, per GPU as {@code gres/gpu}). */
    public double perUnit(String tres) {
        if (weights.isEmpty()) {
            return tres.equals("cpu") ? 1 : 0;
        }
        return weights.weight(tres);
    }

    /**
     * What an allocation held for {@code seconds} charges: billing × seconds and each TRES × seconds, all times the
     * QOS UsageFactor.
     */
    public UsageCharge charge(TresAmount tres, double seconds, double usageFactor) {
        Map<String, Double> perTres = new LinkedHashMap<>();
        double f = seconds * usageFactor;
        if (tres.cpus() > 0) {
            perTres.put("cpu", tres.cpus() * f);
        }
        if (tres.memMb() > 0) {
            perTres.put("mem", tres.memMb() * f);
        }
        if (tres.nodes() > 0) {
            perTres.put("node", tres.nodes() * f);
        }
        tres.gres().forEach((name, count) -> perTres.put("gres/" + name, count * f));
        return new UsageCharge(billing(tres) * f, perTres);
    }
}
