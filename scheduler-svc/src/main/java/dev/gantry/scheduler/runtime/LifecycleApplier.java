package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.lifecycle.Decision;
import dev.gantry.scheduler.lifecycle.Effect;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.store.GroupCommitWriter;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the lifecycle's {@link Decision}s: the one place where a transition's records enter the controller's
 * state and its effects reach the fair-share ledger, the event stream, the agents and the database. Controller thread
 * only ({@link ClusterState} checks it).
 *
 * <p>Whatever order a transition lists its effects in, they are carried out in this order, each group in the order
 * listed:
 * <ol>
 *   <li>the new job records go into the state (allocations follow them), then the new node records, then the jobs
 *       to {@link Effect.Forget} are purged;
 *   <li>usage: {@link Effect.StopCharging} and {@link Effect.StartCharging} (the fair-share ledger);
 *   <li>parts: {@link Effect.TrackParts} starts tracking a placed job's nodes; {@link Effect.ReleaseParts} stops
 *       tracking them and ends the job's parts left on nodes other than the batch host;
 *   <li>publish: {@link Effect.PublishAllocation}, {@link Effect.PublishRelease}, {@link Effect.PublishChange}, each
 *       with the nodes concerned, and {@link Effect.PublishNode} (the events go out when the controller task ends);
 *   <li>agents: every {@link Effect.Launch} is prepared first (credential signed, request built), then {@link
 *       Effect.Launch}, {@link Effect.Terminate}, {@link Effect.EndParts}, {@link Effect.Freeze}, {@link Effect.Thaw}
 *       are sent in the order listed (a SUSPEND victim's freeze before its preemptor's launch);
 *   <li>persist: {@link Effect.Persist}, queued to the group-commit writer after the agent calls (on a small machine
 *       the committing thread, woken earlier, takes the CPU from this one);
 *   <li>records: metrics, audit and log lines;
 *   <li>{@link Effect.TriggerPass}, at most once per decision.
 * </ol>
 * The future {@link #apply} returns completes once every version the decision persists is committed.
 */
final class LifecycleApplier {

    private static final Logger LOG = LoggerFactory.getLogger(LifecycleApplier.class);

    private final ClusterState state;
    private final Priorities priorities;
    private final CompletingJobs completing;
    private final EventLog events;
    private final JobLauncher launcher;
    private final GroupCommitWriter writer;
    private final SchedulerMetrics metrics;
    private final long killWait;
    private final Runnable trigger;

    LifecycleApplier(ClusterState state, Priorities priorities, CompletingJobs completing, EventLog events,
            JobLauncher launcher, GroupCommitWriter writer, SchedulerMetrics metrics, long killWait, Runnable trigger) {
        this.state = state;
        this.priorities = priorities;
        this.completing = completing;
        this.events = events;
        this.launcher = launcher;
        this.writer = writer;
        this.metrics = metrics;
        this.killWait = killWait;
        this.trigger = trigger;
    }

    /** Carries the decision out (controller thread); the future completes once what it persists is durable. */
    CompletableFuture<Void> apply(Decision d) {
        if (d.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<Effect> effects = d.effects();
        putRecords(d);
        charge(effects);
        trackParts(effects);
        publish(effects);
        tellAgents(effects);
        CompletableFuture<Void> durable = persist(effects);
        record(effects);
        if (effects.contains(Effect.TRIGGER_PASS)) {
            trigger.run();
        }
        return durable;
    }

    /**
     * Completes once every write queued so far is committed: what an answer that changes nothing waits for, so that a
     * repeated request is not acknowledged before what the first one changed is durable.
     */
    CompletableFuture<Void> flushed() {
        return writer.flushed();
    }

    /** (1) Jobs, then nodes, then the jobs to forget. */
    private void putRecords(Decision d) {
        d.records().forEach(state::put);
        d.nodes().forEach(state::putNode);
        for (Effect e : d.effects()) {
            if (e instanceof Effect.Forget f) {
                state.purge(f.jobId());
            }
        }
    }

    /** (2) The fair-share ledger. */
    private void charge(List<Effect> effects) {
        for (Effect e : effects) {
            switch (e) {
                case Effect.StopCharging s -> priorities.stopped(s.job(), s.at());
                case Effect.StartCharging s -> priorities.started(s.job(), s.from());
                default -> {}
            }
        }
    }

    /** (3) Which nodes may hold a part of each job. */
    private void trackParts(List<Effect> effects) {
        for (Effect e : effects) {
            switch (e) {
                case Effect.ReleaseParts r -> {
                    List<String> left = completing.released(r.job());
                    if (!left.isEmpty()) {
                        launcher.endParts(r.job(), left, r.why());
                    }
                }
                case Effect.TrackParts t -> completing.started(t.job());
                default -> {}
            }
        }
    }

    /** (4) The event stream (flushed when the controller task ends). */
    private void publish(List<Effect> effects) {
        for (Effect e : effects) {
            switch (e) {
                case Effect.PublishAllocation p -> {
                    events.publish(ClusterEvent.newBuilder().setAllocationAdded(ClusterProtos.allocation(p.job())));
                    publishNodes(p.job().allocation());
                }
                case Effect.PublishRelease p -> {
                    events.publish(ClusterEvent.newBuilder().setAllocationReleased(p.job().id()));
                    publishNodes(p.job().allocation());
                }
                case Effect.PublishChange p -> {
                    events.publish(ClusterEvent.newBuilder().setAllocationChanged(ClusterProtos.allocation(p.job())));
                    if (p.nodes()) {
                        publishNodes(p.job().allocation());
                    }
                }
                case Effect.PublishNode n -> publishNode(n.node());
                default -> {}
            }
        }
    }

    /** (5) Agents: every launch prepared first, then the calls in the order listed. */
    private void tellAgents(List<Effect> effects) {
        Map<Effect.Launch, JobLauncher.Launch> launches = new IdentityHashMap<>();
        for (Effect e : effects) {
            if (e instanceof Effect.Launch l) {
                launches.put(l, launcher.prepare(l.job()));
            }
        }
        for (Effect e : effects) {
            switch (e) {
                case Effect.Launch l -> launches.get(l).send();
                case Effect.Terminate t -> launcher.terminate(t.job(), t.graceSeconds() + killWait, t.why());
                case Effect.EndParts p -> launcher.endParts(p.job(), p.nodes(), p.why());
                case Effect.Freeze f -> launcher.suspendOrResume(f.job(), true);
                case Effect.Thaw t -> launcher.suspendOrResume(t.job(), false);
                default -> {}
            }
        }
    }

    /** (6) The group-commit writer; the future of every write. */
    private CompletableFuture<Void> persist(List<Effect> effects) {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (Effect e : effects) {
            if (e instanceof Effect.Persist p) {
                writes.add(writer.write(p.job()));
            }
        }
        return writes.size() == 1 ? writes.get(0) : CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }

    /** (7) Metrics, audit and log lines. */
    private void record(List<Effect> effects) {
        for (Effect e : effects) {
            switch (e) {
                case Effect.CountEnd c -> metrics.ended(c.job());
                case Effect.CountSubmit c -> metrics.submitted(c.job().partition());
                case Effect.CountStart c -> metrics.started(c.job(), c.job().submitTime(), c.job().startTime());
                case Effect.CountGraceKill g -> metrics.graceKill(g.partition());
                case Effect.CountStaleRun c -> metrics.staleRunReport(label(c.kind()));
                case Effect.CountManualSuspension m -> metrics.manualSuspension(m.suspend());
                case Effect.CountPreempted p -> {
                    metrics.preempted(label(p.mode()), p.victim().partition(), p.victim().controls().qos());
                    if (p.escalation() != null) {
                        metrics.escalated(label(p.escalation().from()), label(p.escalation().to()));
                    }
                }
                case Effect.AuditOnJob a -> Audit.onJob(a.at(), a.who(), a.verb(), a.job());
                case Effect.Note n -> {
                    if (n.warn()) {
                        LOG.warn(n.text());
                    } else {
                        LOG.info(n.text());
                    }
                }
                default -> {}
            }
        }
    }

    private static String label(Enum<?> mode) {
        return mode.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Publishes the current records of the nodes the shares are on (controller thread). */
    private void publishNodes(List<NodeShare> shares) {
        shares.forEach(s -> publishNode(s.node()));
    }

    private void publishNode(String node) {
        events.publish(ClusterEvent.newBuilder().setNodeChanged(ClusterProtos.node(state, state.node(node))));
    }
}
