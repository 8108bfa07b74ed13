package dev.gantry.scheduler.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How fairly the controller judges its nodes (prefix gantry_): its own pauses, nodes set DOWN and returned, heartbeats
 * answered "register again", and the runs reconciliation ends. Labels are fixed words only. Thread-safe.
 */
public final class LivenessMetrics {

    /** Counts into a registry nobody reads (a controller built without metrics, as in most tests). */
    static LivenessMetrics unread() {
        return new LivenessMetrics(new SimpleMeterRegistry());
    }

    private final MeterRegistry registry;
    private final Counter pauses;
    private final Timer pauseLength;
    private final AtomicLong lastPauseMillis = new AtomicLong();
    private final Counter notResponding;
    private final Counter returned;
    private final Map<String, Counter> toRegister = new ConcurrentHashMap<>();
    private final Map<String, Counter> orphans = new ConcurrentHashMap<>();
    private final Counter partsMissing;

    public LivenessMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.pauses = Counter.builder("gantry_controller_pauses_total")
                .description("Times the controller saw on its monotonic clock that it could not run (stopped, starved) for "
                        + "longer than its pause threshold; each gave every node a fresh SlurmdTimeout window")
                .register(registry);
        this.pauseLength = Timer.builder("gantry_controller_pause_seconds")
                .description("Length of each such pause of the controller").publishPercentileHistogram().register(registry);
        Gauge.builder("gantry_controller_last_pause_seconds", lastPauseMillis, m -> m.get() / 1000.0)
                .description("Length of the controller's latest pause (0: none since it started)").register(registry);
        this.notResponding = Counter.builder("gantry_nodes_not_responding_total")
                .description("Nodes set DOWN for not responding for SlurmdTimeout").register(registry);
        this.returned = Counter.builder("gantry_nodes_returned_total")
                .description("Nodes DOWN for not responding that returned to service when their agent registered again")
                .register(registry);
        this.partsMissing = Counter.builder("gantry_job_parts_missing_total")
                .description("Parts of jobs the controller held on a node whose agent's heartbeat no longer listed them, "
                        + "past the launch grace: counted gone")
                .register(registry);
    }

    void paused(Duration length) {
        pauses.increment();
        pauseLength.record(length);
        lastPauseMillis.set(length.toMillis());
    }

    void nodeNotResponding() {
        notResponding.increment();
    }

    void nodeReturned() {
        returned.increment();
    }

    /** A heartbeat answered "register again"; {@code why}: {@code not_registered} or {@code not_responding}. */
    void askedToRegister(String why) {
        toRegister.computeIfAbsent(why, w -> Counter.builder("gantry_heartbeats_register_again_total").tag("reason", w)
                .description("Heartbeats answered that the agent must register again: the controller does not know the "
                        + "node (not_registered) or set it DOWN for not responding (not_responding)")
                .register(registry)).increment();
    }

    /** A run an agent listed that the controller no longer gives its node was terminated; {@code by}: how it was found. */
    void orphanTerminated(String by) {
        orphans.computeIfAbsent(by, b -> Counter.builder("gantry_orphan_runs_terminated_total").tag("reason", b)
                .description("Runs an agent listed that the controller no longer gives that node, terminated; found by "
                        + "a registration or a heartbeat")
                .register(registry)).increment();
    }

    void partMissing() {
        partsMissing.increment();
    }
}
