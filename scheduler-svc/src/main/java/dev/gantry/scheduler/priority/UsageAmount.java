package dev.gantry.scheduler.priority;

/**
 * An amount of further usage, in billing-seconds and, through the billing weights, as CPU-hours, GPU-hours or
 * memory GB-hours each alone (a TRES with no billing weight cannot do it alone: +∞). {@code never} when no amount
 * does it.
 */
public record UsageAmount(double billingSeconds, double cpuHours, double gpuHours, double gbHours, boolean never) {

    /** No amount of usage does it. */
    public static final UsageAmount NEVER = new UsageAmount(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, true);

    /** Billing-seconds expressed through each TRES's billing weight. */
    public static UsageAmount of(double billingSeconds, TresBilling billing) {
        return new UsageAmount(billingSeconds, hours(billingSeconds, billing.perUnit("cpu")),
                hours(billingSeconds, billing.perUnit("gres/gpu")), hours(billingSeconds, billing.perUnit("mem") * 1024),
                false);
    }

    private static double hours(double billingSeconds, double perUnit) {
        if (billingSeconds == 0) {
            return 0;
        }
        return perUnit > 0 ? billingSeconds / perUnit / 3600 : Double.POSITIVE_INFINITY;
    }
}
