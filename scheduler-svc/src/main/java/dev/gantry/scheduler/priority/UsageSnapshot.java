package dev.gantry.scheduler.priority;

import java.time.Instant;
import java.util.Map;

/**
 * The usage ledger in a form to persist: each association's decayed usage as of {@code asOf}, by name:
 * {@link #BILLING} for billing-seconds, and TRES names ({@code cpu}, {@code mem}, {@code gres/gpu}) for TRES-seconds.
 * Restoring it ({@link UsageLedger#restore}) and reading at a later time decays from {@code asOf}, so a controller
 * that was down for a day finds its usage decayed by that day.
 */
public record UsageSnapshot(Instant asOf, Map<Association, Map<String, Double>> usage) {

    /** The name of the billing-seconds entry. */
    public static final String BILLING = "billing";

    public UsageSnapshot {
        usage = usage.entrySet().stream().collect(java.util.stream.Collectors.toUnmodifiableMap(
                Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
    }
}
