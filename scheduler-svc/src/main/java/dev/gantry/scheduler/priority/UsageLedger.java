package dev.gantry.scheduler.priority;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decayed usage per user association (Slurm's usage_raw and usage_tres_raw), charged as jobs run and halved every
 * PriorityDecayHalfLife (https://slurm.schedmd.com/classic_fair_share.html#norm_usage). Decay is applied by elapsed
 * time, not per call: usage charged at t₀ reads {@code x·2^(−(t−t₀)/halfLife)} at t however often or irregularly
 * {@link #charge} is called, so charging every PriorityCalcPeriod and at job end is exact. A half-life of 0 means no
 * decay (Slurm's PriorityDecayHalfLife=0).
 *
 * <p>Implementation: values are stored scaled to a base time ({@code stored = value·2^((t−base)/halfLife)}), so a
 * charge is O(1) and the whole ledger is rescaled only every 64 half-lives. Not thread-safe: the controller thread owns
 * it. Times should not go backwards by much (an older time reads a larger, undecayed value).
 */
public final class UsageLedger {

    private static final double REBASE_HALF_LIVES = 64;

    private final double halfLifeSeconds;
    private final Map<Association, Map<String, double[]>> scaled = new LinkedHashMap<>();
    private double baseSeconds;

    /** An empty ledger decaying with the given half-life (0 = no decay). */
    public UsageLedger(long halfLifeSeconds) {
        if (halfLifeSeconds < 0) {
            throw new IllegalArgumentException("half-life " + halfLifeSeconds + " < 0");
        }
        this.halfLifeSeconds = halfLifeSeconds;
    }

    /** A ledger holding a snapshot's usage, decaying from its time on with the given half-life. */
    public static UsageLedger restore(UsageSnapshot snapshot, long halfLifeSeconds) {
        UsageLedger ledger = new UsageLedger(halfLifeSeconds);
        ledger.baseSeconds = seconds(snapshot.asOf());
        snapshot.usage().forEach((assoc, byName) -> {
            Map<String, double[]> m = new HashMap<>();
            byName.forEach((name, v) -> m.put(name, new double[] {v}));
            ledger.scaled.put(assoc, m);
        });
        return ledger;
    }

    /** Adds usage at time {@code at} (billing-seconds and TRES-seconds, UsageFactor already applied). */
    public void charge(Association association, UsageCharge charge, Instant at) {
        double scale = scaleAt(at);
        Map<String, double[]> m = scaled.computeIfAbsent(association, a -> new HashMap<>());
        m.computeIfAbsent(UsageSnapshot.BILLING, k -> new double[1])[0] += charge.billingSeconds() * scale;
        charge.tresSeconds().forEach((tres, v) -> m.computeIfAbsent(tres, k -> new double[1])[0] += v * scale);
    }

    /** Adds billing-seconds to a user's association at time {@code at}. */
    public void charge(String account, String user, double billingSeconds, Instant at) {
        charge(Association.of(account, user), UsageCharge.billing(billingSeconds), at);
    }

    /** The association's decayed billing-seconds at {@code at}; 0 when never charged. */
    public double usage(Association association, Instant at) {
        return usage(association, UsageSnapshot.BILLING, at);
    }

    /** The association's decayed usage of one entry (billing or a TRES name) at {@code at}. */
    public double usage(Association association, String name, Instant at) {
        Map<String, double[]> m = scaled.get(association);
        double[] v = m == null ? null : m.get(name);
        return v == null ? 0 : v[0] / scaleOf(seconds(at));
    }

    /** Every association's decayed usage at {@code at}, to persist. */
    public UsageSnapshot snapshot(Instant at) {
        double scale = scaleOf(seconds(at));
        Map<Association, Map<String, Double>> out = new LinkedHashMap<>();
        scaled.forEach((assoc, m) -> {
            Map<String, Double> byName = new LinkedHashMap<>();
            m.forEach((name, v) -> byName.put(name, v[0] / scale));
            out.put(assoc, byName);
        });
        return new UsageSnapshot(at, out);
    }

    /**
     * Raw billing usage per node of {@code tree} at {@code at}: each user node its own, each account node the sum of
     * its sub-tree, root the whole cluster's (associations no longer in the tree count in root only, until they decay).
     */
    public double[] usageByNode(AssociationTree tree, Instant at) {
        return byNode(tree, UsageSnapshot.BILLING, at);
    }

    /** As {@link #usageByNode}, for one TRES name's TRES-seconds. */
    public double[] byNode(AssociationTree tree, String name, Instant at) {
        double scale = scaleOf(seconds(at));
        double[] out = new double[tree.size()];
        scaled.forEach((assoc, m) -> {
            double[] v = m.get(name);
            if (v == null) {
                return;
            }
            double value = v[0] / scale;
            int node = tree.node(assoc);
            if (node < 0) {
                out[0] += value;
                return;
            }
            for (int n = node; n >= 0; n = tree.parent(n)) {
                out[n] += value;
            }
        });
        return out;
    }

    /** The multiplier stored values have at {@code at}, rebasing first when it would grow too large. */
    private double scaleAt(Instant at) {
        double t = seconds(at);
        if (halfLifeSeconds > 0 && (t - baseSeconds) / halfLifeSeconds > REBASE_HALF_LIVES) {
            double s = scaleOf(t);
            scaled.values().forEach(m -> m.values().forEach(v -> v[0] /= s));
            baseSeconds = t;
        }
        return scaleOf(t);
    }

    private double scaleOf(double t) {
        return halfLifeSeconds == 0 ? 1.0 : Math.pow(2, (t - baseSeconds) / halfLifeSeconds);
    }

    private static double seconds(Instant at) {
        return at.getEpochSecond() + at.getNano() / 1e9;
    }
}
