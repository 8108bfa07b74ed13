package dev.gantry.scheduler.priority;

import java.util.Map;

/**
 * Usage to add to an association: billing-seconds (what fair share counts) and TRES-seconds per TRES name
 * ({@code cpu}: CPU-seconds, {@code mem}: MiB-seconds, {@code gres/gpu}: GPU-seconds), both already multiplied by the
 * QOS UsageFactor.
 */
public record UsageCharge(double billingSeconds, Map<String, Double> tresSeconds) {

    public UsageCharge {
        tresSeconds = Map.copyOf(tresSeconds);
    }

    /** Billing-seconds only. */
    public static UsageCharge billing(double billingSeconds) {
        return new UsageCharge(billingSeconds, Map.of());
    }
}
