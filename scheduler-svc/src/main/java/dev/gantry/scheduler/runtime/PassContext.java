package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.scheduler.cycle.Eligibility;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.lifecycle.Start;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.preempt.BackfillPreemption;
import dev.gantry.scheduler.preempt.PreemptSettings;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * What the scheduling passes ({@link SchedulingLoop}, {@link BackfillScheduler}, {@link PreemptionPass}) use of the
 * controller, and nothing else: its state and thread, the decisions they carry out through the applier, and the queue
 * they take. One per controller ({@link Controller#passes}), since it holds the preemption pass's hold-backs.
 */
final class PassContext {

    /** Whether the database commits now: while it does not, no pass starts a job (SchedulerRuntime sets it). */
    volatile java.util.function.BooleanSupplier databaseUp = () -> true;
    final ClusterState state;
    final EventLog events;
    final LifecycleApplier applier;
    final InstantSource clock;
    final SchedulerMetrics metrics;
    final SchedEvals schedEvals;
    final GangSlices gang;
    private final ClusterConfig config;
    private final AccountingCommands accounting;
    private final QosTable qos;
    private final JobDependencies dependencies;
    private final Executor onController;
    private final Runnable trigger;
    private volatile Supplier<Set<Long>> preemptionHolds = Set::of;

    PassContext(ClusterConfig config, ClusterState state, EventLog events, LifecycleApplier applier, InstantSource clock,
            SchedulerMetrics metrics, SchedEvals schedEvals, AccountingCommands accounting, QosTable qos,
            JobDependencies dependencies, GangSlices gang, Executor onController, Runnable trigger) {
        this.config = config;
        this.state = state;
        this.events = events;
        this.applier = applier;
        this.clock = clock;
        this.metrics = metrics;
        this.schedEvals = schedEvals;
        this.accounting = accounting;
        this.qos = qos;
        this.dependencies = dependencies;
        this.gang = gang;
        this.onController = onController;
        this.trigger = trigger;
    }

    /** Runs on the controller thread. */
    <T> CompletableFuture<T> call(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, onController);
    }

    CompletableFuture<Void> run(Runnable work) {
        return CompletableFuture.runAsync(work, onController);
    }

    /** Asks for another main pass soon. */
    void trigger() {
        trigger.run();
    }

    String epoch() {
        return events.epoch();
    }

    /** The preemption settings in force (a QOS edit through the API may change them). */
    PreemptSettings preemptSettings() {
        return accounting.preemptSettings();
    }

    /** Whether some partition has BackfillPolicy=PREEMPT (the preemption pass then runs whatever PreemptType says). */
    boolean backfillPreempts() {
        return BackfillPreemption.anyIn(config.partitions());
    }

    /**
     * What a main or backfill pass considers (controller thread): {@link MainPass#prepare}, less the requeued
     * preemption victims held back while their preemptor waits for its other victims ({@link #setPreemptionHolds}).
     */
    MainPass.Input queue() {
        Instant now = clock.instant();
        MainPass.Input in = MainPass.prepare(state, new Eligibility(now,
                state.jobs().stream().filter(ClusterState::holds).toList(), qos.all(), dependencies.check(now)));
        Set<Long> held = preemptionHolds.get();
        if (held.isEmpty()) {
            return in;
        }
        return new MainPass.Input(in.candidates().stream().filter(j -> !held.contains(j.id())).toList(),
                in.pendingReasons());
    }

    /** The jobs passes leave alone for now (read on the controller thread); the preemption pass sets it. */
    void setPreemptionHolds(Supplier<Set<Long>> holds) {
        this.preemptionHolds = holds;
    }

    /**
     * Starts a pending job on a checked placement (controller thread; {@link Start}): the launch is prepared before
     * anything is sent, and the write queued after ({@link LifecycleApplier}).
     */
    void start(JobRecord job, Start.Placement placement) {
        if (!databaseUp.getAsBoolean()) {
            return; // stays pending: a start that cannot be made durable could run again after a restart
        }
        applier.apply(Start.start(job, placement, gang::startsSuspended, List.of(), clock.instant()));
    }
}
