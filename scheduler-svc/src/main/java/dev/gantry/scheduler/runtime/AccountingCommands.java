package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.QosConfig;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.lifecycle.Pending;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.preempt.PreemptSettings;
import dev.gantry.scheduler.priority.PriorityFactors;
import dev.gantry.scheduler.priority.ShareRow;
import dev.gantry.scheduler.store.StateStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * sacctmgr's QOS, sprio and sshare, and the periodic priority recalculation, on the controller thread ({@code
 * onController}); the QOS in force and the preemption settings they make.
 */
public final class AccountingCommands {

    private final ClusterConfig config;
    private final ClusterState state;
    private final QosTable qos;
    private final Priorities priorities;
    private final StateStore stateStore;
    private final LifecycleApplier applier;
    private final InstantSource clock;
    private final Executor onController;
    private final Runnable trigger;
    /** PreemptType and modes, with the QOS in force (controller thread writes, the scheduling thread reads). */
    private volatile PreemptSettings preempt;

    AccountingCommands(ClusterConfig config, ClusterState state, QosTable qos, Priorities priorities,
            StateStore stateStore, LifecycleApplier applier, InstantSource clock, Executor onController, Runnable trigger) {
        this.config = config;
        this.state = state;
        this.qos = qos;
        this.priorities = priorities;
        this.stateStore = stateStore;
        this.applier = applier;
        this.clock = clock;
        this.onController = onController;
        this.trigger = trigger;
        this.preempt = PreemptSettings.of(config.withAccounting(qos.accounting()));
    }

    /** The preemption settings in force (an accepted UpdateQos replaces them); any thread. */
    public PreemptSettings preemptSettings() {
        return preempt;
    }

    /**
     * Every PriorityCalcPeriod (controller thread): charges running jobs' usage, recomputes the pending jobs'
     * priorities, and stores the usage (off this thread).
     */
    void recalculatePriorities() {
        Instant now = clock.instant();
        applier.apply(Pending.reprioritized(priorities.recalculate(state.jobs(), now)));
        priorities.store(stateStore, now);
    }

    /** One sprio row: the factors, and whether an administrator fixed the total. */
    public record PriorityRow(PriorityFactors priority, boolean adminSet) {}

    /** sprio: pending jobs' priority factors, in job id order. */
    public CompletableFuture<List<PriorityRow>> priorityFactors(JobQuery query) {
        return CompletableFuture.supplyAsync(() -> {
            List<JobRecord> pending = state.jobs().stream()
                    .filter(j -> j.state() == JobState.PENDING && !j.completing() && query.matches(j)).toList();
            var factors = priorities.factors(pending, clock.instant());
            List<PriorityRow> rows = new ArrayList<>(pending.size());
            for (int i = 0; i < pending.size(); i++) {
                rows.add(new PriorityRow(factors.get(i), pending.get(i).controls().adminPriority()));
            }
            return rows;
        }, onController);
    }

    /** sshare: every association's shares, usage and factor now. */
    public CompletableFuture<List<ShareRow>> shares() {
        return CompletableFuture.supplyAsync(() -> priorities.shares(clock.instant()), onController);
    }

    public Priorities prioritiesView() {
        return priorities;
    }

    public CompletableFuture<List<QosConfig>> listQos(List<String> names) {
        return CompletableFuture.supplyAsync(() -> qos.list(names), onController);
    }

    /** Creates or replaces a QOS (administrators); durable before the answer. */
    public CompletableFuture<QosConfig> updateQos(dev.gantry.api.v1.Qos edited, String user) {
        return updateQos(edited, Requester.of(config, user, -1));
    }

    /**
     * Creates or replaces a QOS as {@code who}: operators and administrators only (Slurm's sacctmgr needs
     * AdminLevel=Operator for QOS); every edit and every refusal is audited.
     */
    public CompletableFuture<QosConfig> updateQos(dev.gantry.api.v1.Qos edited, Requester who) {
        return CompletableFuture.supplyAsync(() -> {
            if (!who.privileged()) {
                Audit.refused(clock.instant(), who, "edit of QOS " + edited.getName());
                throw new QosTable.RefusedChange("qos " + edited.getName() + ": only operators and administrators edit QOS ("
                        + who.user() + " is neither): Access/permission denied", true);
            }
            // the edit must also leave a valid preemption setup (no Preempt= cycle between QOS, say)
            QosConfig q = qos.update(edited, next -> PreemptSettings.of(config.withAccounting(next)));
            priorities.qosChanged(qos.accounting(), clock.instant());
            preempt = PreemptSettings.of(config.withAccounting(qos.accounting()));
            Audit.record(clock.instant(), who, "set QOS " + q.name() + " to " + com.google.protobuf.TextFormat.shortDebugString(edited));
            trigger.run();
            return q;
        }, onController);
    }
}
