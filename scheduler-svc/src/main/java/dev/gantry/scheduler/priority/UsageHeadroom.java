package dev.gantry.scheduler.priority;

/**
 * How much more usage, charged now (no decay), would halve an association's fair-share factor, and how much would
 * make it 0 (only where the form reaches 0: the linear form; classic never does). Both are "never" when even
 * unbounded usage cannot do it, which happens because usage is normalized by the cluster's total: usage charged to
 * a node also grows the total, so its normalized usage tends to 1, not to infinity. Pure.
 */
public record UsageHeadroom(UsageAmount toHalve, UsageAmount toZero) {

    /** The headroom of one tree node in a table, expressed through {@code billing}'s weights. */
    public static UsageHeadroom of(FairShareTable table, int node, TresBilling billing) {
        double now = table.factor(node);
        double half = extra(table, node, now / 2);
        UsageAmount toHalve = Double.isInfinite(half) ? UsageAmount.NEVER : UsageAmount.of(half, billing);
        UsageAmount toZero = UsageAmount.NEVER;
        if (table.algorithm().reachesZero()) {
            double zero = extra(table, node, 0);
            toZero = Double.isInfinite(zero) ? UsageAmount.NEVER : UsageAmount.of(zero, billing);
        }
        return new UsageHeadroom(toHalve, toZero);
    }

    /**
     * The least extra billing-seconds that bring the node's factor to {@code target} or below; +∞ if none does.
     * The factor falls monotonically with extra usage, so a doubling search then bisection finds it.
     */
    public static double extra(FairShareTable table, int node, double target) {
        FairShareAlgorithm a = table.algorithm();
        if (a.factorWith(table, node, 0) <= target) {
            return 0;
        }
        double limit = Math.max(table.totalUsage(), 1) * 1e15;
        double hi = Math.max(table.totalUsage(), 1) / 1024;
        while (a.factorWith(table, node, hi) > target) {
            if (hi > limit) {
                return Double.POSITIVE_INFINITY;
            }
            hi *= 2;
        }
        double lo = 0;
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (a.factorWith(table, node, mid) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }
}
