package dev.gantry.agent.job;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Suspends and resumes that reached this node before the run of the job they name was launched here. The controller
 * may suspend a job the moment it started it (gang scheduling suspends a job allocated onto a running job's resources
 * at once), and its SuspendJob can overtake the LaunchJob sent just before it, or come while a multi-node launch is
 * still being forwarded to this node. The last such order for a run is kept until that run's launch takes it, so the
 * job starts stopped when the controller holds it suspended: not one instruction of it runs meanwhile.
 *
 * <p>An order is kept for {@code memory} (longer than a launch credential lives: a later launch is refused anyway), for
 * at most {@code capacity} runs (the oldest go first), and dropped when the job is terminated here. Not thread-safe: the
 * caller serializes access (the supervisor holds its lock).
 */
public final class EarlyControls {

    private record Run(long jobId, int run) {}

    private record Order(boolean suspended, Instant until) {}

    private final InstantSource clock;
    private final Duration memory;
    private final int capacity;
    /** In arrival order, so the oldest is dropped first when full. */
    private final LinkedHashMap<Run, Order> orders = new LinkedHashMap<>();

    public EarlyControls(InstantSource clock, Duration memory, int capacity) {
        if (memory.isNegative() || memory.isZero() || capacity < 1) {
            throw new IllegalArgumentException("memory and capacity must be positive, got " + memory + ", " + capacity);
        }
        this.clock = clock;
        this.memory = memory;
        this.capacity = capacity;
    }

    /** Keeps a suspend ({@code suspended}) or resume for run {@code run} of a job not launched here yet; the latest wins. */
    public void record(long jobId, int run, boolean suspended) {
        forgetExpired();
        Run key = new Run(jobId, run);
        orders.remove(key); // re-inserted last: it is the newest
        orders.put(key, new Order(suspended, clock.instant().plus(memory)));
        while (orders.size() > capacity) {
            orders.remove(orders.keySet().iterator().next());
        }
    }

    /**
     * Whether run {@code run} of the job must start suspended (the last order for it was a suspend), and forgets every
     * order for that job: those for earlier runs will never apply. Empty when no order came before the launch.
     */
    public Optional<Boolean> takeFor(long jobId, int run) {
        forgetExpired();
        Order order = orders.get(new Run(jobId, run));
        forget(jobId);
        return order == null ? Optional.empty() : Optional.of(order.suspended());
    }

    /** The job was terminated here: no run of it will be controlled any more. */
    public void forget(long jobId) {
        orders.keySet().removeIf(r -> r.jobId() == jobId);
    }

    /** Runs with an order kept (for tests and metrics). */
    public int size() {
        forgetExpired();
        return orders.size();
    }

    /** Orders are kept in arrival order, and each for the same time: the expired ones are at the front. */
    private void forgetExpired() {
        Instant now = clock.instant();
        var it = orders.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Run, Order> e = it.next();
            if (!e.getValue().until().isBefore(now)) {
                return;
            }
            it.remove();
        }
    }
}
