package dev.gantry.gang.runtime;

import dev.gantry.gang.slice.PartitionDecision;
import dev.gantry.gang.slice.SliceOutcome;
import dev.gantry.gang.slice.SuspendedTime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/** Records what the timeslicer decided: slices, swaps and suspended time per partition (docs/metrics.md). Thread-safe. */
final class GangMeters {

    /** Buckets for suspended time: a slice is 1 s to minutes; shadows may last as long as a job runs. */
    private static final Duration[] SUSPENDED_BUCKETS = {Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(15),
            Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15), Duration.ofHours(1),
            Duration.ofHours(6), Duration.ofDays(1)};

    private final MeterRegistry registry;

    GangMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void record(SliceOutcome outcome) {
        for (String partition : outcome.rotated()) {
            Counter.builder("gantry.gang.slices").description("Time slices taken: the partition's job list rotated")
                    .tag("partition", partition).register(registry).increment();
        }
        for (PartitionDecision decision : outcome.decisions()) {
            Counter.builder("gantry.gang.swaps").description("Jobs gang-svc decided to suspend or resume")
                    .tag("partition", decision.partition()).register(registry).increment(decision.swaps());
        }
        for (SuspendedTime suspended : outcome.suspensions()) {
            Timer.builder("gantry.gang.suspended").description("Time a job stayed suspended by gang-svc, recorded when it resumes or ends")
                    .tag("partition", suspended.partition()).serviceLevelObjectives(SUSPENDED_BUCKETS)
                    .register(registry).record(suspended.suspended());
        }
    }
}
