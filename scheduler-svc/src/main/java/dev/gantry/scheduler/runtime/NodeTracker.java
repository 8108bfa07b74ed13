package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.cycle.NodeFailurePolicy;
import dev.gantry.scheduler.lifecycle.JobExit;
import dev.gantry.scheduler.lifecycle.NodeLiveness;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node agents' registrations and heartbeats, and SlurmdTimeout: a node whose heartbeats stop is set DOWN
 * (not responding) and its jobs requeued or ended NODE_FAIL ({@link NodeFailurePolicy}). A registering agent whose hardware is below its config is drained, as slurmctld does.
 *
 * <p>Liveness is judged fairly ({@link NodeLiveness}): silence counts from the controller's own start, or from the end
 * of a pause it saw on its monotonic clock between two ticks ({@link #checkTimeouts}), if later than the node's last
 * heartbeat. A heartbeat lists the agent's runs: one the controller no longer gives the node is terminated, naming the
 * run; a part the controller holds there that the list lacks, past a launch grace, counts as gone. A node set DOWN for
 * not responding is answered "register again" (an empty epoch) until its agent registers, which reconciles its runs and
 * returns the node to service. Everything here runs on the controller thread.
 */
public final class NodeTracker {

    private static final Logger LOG = LoggerFactory.getLogger(NodeTracker.class);

    private final ClusterState state;
    private final CompletingJobs completing;
    private final JobLauncher launcher;
    private final LifecycleApplier applier;
    private final EventLog events;
    private final InstantSource clock;
    private final Executor onController;
    private final Runnable trigger;
    private final long slurmdTimeout;
    private final long heartbeatInterval;
    private final long killWait;
    /** How long after its start a job's part may be missing from a heartbeat without counting as gone. */
    private final Duration launchGrace;
    private final Duration pauseThreshold;
    private LongSupplier monotonic = System::nanoTime;
    private long lastTickNanos;
    private boolean ticked;
    /** Silence counts from no earlier than this: the controller's start, a takeover, the end of its latest pause. */
    private Instant watchingSince;
    private LivenessMetrics metrics = LivenessMetrics.unread();

    NodeTracker(ClusterConfig config, ClusterState state, CompletingJobs completing, JobLauncher launcher,
            LifecycleApplier applier, EventLog events, InstantSource clock, Executor onController, Runnable trigger) {
        this.state = state;
        this.completing = completing;
        this.launcher = launcher;
        this.applier = applier;
        this.events = events;
        this.clock = clock;
        this.onController = onController;
        this.trigger = trigger;
        this.slurmdTimeout = config.get(Keys.SLURMD_TIMEOUT);
        this.heartbeatInterval = Math.max(1, Math.min(30, slurmdTimeout / 3));
        this.killWait = config.get(Keys.KILL_WAIT);
        this.launchGrace = LAUNCH_GRACE.plusSeconds(heartbeatInterval);
        this.pauseThreshold = NodeLiveness.pauseThreshold(TICK, Duration.ofSeconds(heartbeatInterval));
        this.watchingSince = clock.instant();
    }

    /** The period of {@link #checkTimeouts}, as the runtime schedules it. */
    static final Duration TICK = Duration.ofSeconds(1);

    /**
     * The part of {@link #launchGrace} that covers a heartbeat built before a launch reached the agent but answered
     * after: two calls' deadlines (the agent's is 10 s). A heartbeat interval is added.
     */
    private static final Duration LAUNCH_GRACE = Duration.ofSeconds(20);

    /** Where the liveness metrics go (the runtime's registry); set once, before the controller serves. */
    public void countWith(LivenessMetrics metrics) {
        this.metrics = metrics;
    }

    /** The monotonic clock pauses are measured on, in nanoseconds ({@code System::nanoTime}); tests set their own. */
    void measurePausesWith(LongSupplier nanos) {
        this.monotonic = nanos;
        this.ticked = false;
    }

    /**
     * The controller could not watch its nodes until now ({@code why}: a takeover, a pause): every node gets a fresh
     * SlurmdTimeout window from now before any is set DOWN. Controller thread.
     */
    public void watchAfresh(String why) {
        watchingSince = clock.instant();
        LOG.warn("{}: every node gets a fresh SlurmdTimeout window ({} s) from now", why, slurmdTimeout);
    }

    public long heartbeatIntervalSeconds() {
        return heartbeatInterval;
    }

    /** The outcome of a registration: accepted, or the node is not in the config. */
    public sealed interface Registration permits Accepted, UnknownNode {}

    public record Accepted(String epoch, long heartbeatIntervalSeconds) implements Registration {}

    public record UnknownNode(String message) implements Registration {}

    public CompletableFuture<Registration> register(RegisterNodeRequest r) {
        return CompletableFuture.supplyAsync(() -> {
            NodeRecord n = state.node(r.getNode());
            if (n == null) {
                return new UnknownNode("node " + r.getNode() + " is not in the cluster config");
            }
            var hw = r.getHardware();
            String low = hw.getCpus() < n.config().cpus() ? "Low CPUs"
                    : hw.getRealMemoryMb() < n.config().realMemoryMb() ? "Low RealMemory" : null;
            Instant now = clock.instant();
            Instant boot = r.hasBootTime() ? JobProtos.instant(r.getBootTime()) : now;
            if (n.notResponding()) {
                metrics.nodeReturned();
                LOG.info("node {} registers again after being set not responding ({}): back in service", n.name(), n.reason());
            }
            NodeRecord updated = n.registeredAt(r.getAgentAddress(), r.getStepAddress().isEmpty() ? r.getAgentAddress() : r.getStepAddress(),
                    now, boot, low != null, low);
            applier.apply(NodeLiveness.registered(updated));
            launcher.agentRegistered(n.name(), r.getAgentAddress()); // a restarted agent: the channel to it connects now
            // Jobs the agent still runs that the controller considers over are orphans: kill them. So is another run
            // of a job than its current one (the agent names the runs; an older agent only the ids: any run).
            Map<Long, Integer> runs = new HashMap<>();
            r.getRunningJobsList().forEach(rj -> runs.put(rj.getJobId(), rj.getRestartCount()));
            List<Long> current = new ArrayList<>();
            for (long id : r.getRunningJobIdsList()) {
                JobRecord j = state.job(id);
                int run = runs.getOrDefault(id, JobExit.UNNAMED_RUN);
                boolean otherRun = j != null && !JobExit.ofCurrentRun(j, run);
                if (!otherRun) {
                    current.add(id);
                }
                // (also a job requeued meanwhile, e.g. after this node was set DOWN: it must not run twice)
                if (j == null || (j.state().isFinished() && !j.completing()) || j.state() == JobState.PENDING || otherRun) {
                    LOG.warn("node {} runs job {} (run {}), which it no longer has here ({}); terminating that run", n.name(), id, run,
                            j == null ? "unknown" : otherRun ? "current run " + j.controls().restartCount() : j.state());
                    metrics.orphanTerminated("registration");
                    launcher.terminateOrphan(updated, id, run, killWait);
                } else if (j.completing()) {
                    launcher.terminateOrphan(updated, id, run, killWait); // again, in case the first was lost
                }
            }
            // the jobs it does not list (or only another run of) have nothing left there (an exit it still owes is
            // re-sent; its part is gone)
            applier.apply(completing.registered(n.name(), current, now));
            LOG.info("node {} registered from {}{}", n.name(), r.getAgentAddress(), low != null ? " (drained: " + low + ")" : "");
            trigger.run();
            return new Accepted(events.epoch(), heartbeatInterval);
        }, onController);
    }

    /** Records a heartbeat that carries no usage and no list of runs. */
    public CompletableFuture<String> heartbeat(String node) {
        return heartbeat(node, Map.of(), null);
    }

    /** Records a heartbeat that carries no list of runs. */
    public CompletableFuture<String> heartbeat(String node, Map<Long, Integer> usageRuns) {
        return heartbeat(node, usageRuns, null);
    }

    /**
     * Records a heartbeat; answers the epoch only when the node is registered with this controller and responding,
     * else "" (its agent must register again: {@link NodeLiveness#mustRegister}). {@code usageRuns}: the run each usage
     * report of the heartbeat names, by job id; usage of another run of a job than its current one is ignored and
     * counted ({@link JobExit#otherRun}). {@code listed}: the runs the agent has, job id to run ({@link
     * JobExit#UNNAMED_RUN} when it named none), reconciled as {@link #reconcile} says; null: the heartbeat lists none.
     */
    public CompletableFuture<String> heartbeat(String node, Map<Long, Integer> usageRuns, Map<Long, Integer> listed) {
        return CompletableFuture.supplyAsync(() -> {
            NodeRecord n = state.node(node);
            if (NodeLiveness.mustRegister(n)) {
                if (n != null) {
                    metrics.askedToRegister(n.registered() ? "not_responding" : "not_registered");
                    if (n.notResponding()) {
                        LOG.info("node {} heartbeats while set not responding ({}): asking it to register again", node, n.reason());
                    }
                }
                return "";
            }
            Instant now = clock.instant();
            applier.apply(NodeLiveness.heartbeat(n, now));
            usageRuns.forEach((id, run) -> {
                JobRecord j = state.job(id);
                if (j != null && !JobExit.ofCurrentRun(j, run)) {
                    applier.apply(JobExit.otherRun(j, JobExit.ReportKind.USAGE, node, run));
                }
            });
            if (listed != null) {
                reconcile(n, listed, now);
            }
            return events.epoch();
        }, onController);
    }

    /**
     * A heartbeat's list of runs against what the controller gives the node ({@link NodeLiveness#orphans}): a run it
     * no longer gives is terminated, naming the run; a part of a job held there that the list lacks, started longer
     * than the launch grace ago, has nothing left there ({@link CompletingJobs#partGone}, as at registration).
     */
    private void reconcile(NodeRecord n, Map<Long, Integer> listed, Instant now) {
        for (NodeLiveness.Orphan o : NodeLiveness.orphans(n.name(), listed, state::job)) {
            LOG.warn("node {} runs job {} (run {}), which is {}; terminating that run", n.name(), o.jobId(), o.run(), o.why());
            metrics.orphanTerminated("heartbeat");
            launcher.terminateOrphan(n, o.jobId(), o.run(), killWait);
        }
        List<Long> gone = new ArrayList<>(); // (the node's holders, not every job: this runs at every heartbeat)
        for (long id : state.holders(n.name())) {
            JobRecord j = state.job(id);
            if (j != null && !listed.containsKey(id) && completing.hasPartOn(j, n.name())
                    && NodeLiveness.missingLongEnough(j, launchGrace, now)) {
                gone.add(id);
            }
        }
        for (long id : gone) {
            LOG.info("node {} no longer lists job {}: its part there is gone", n.name(), id);
            metrics.partMissing();
            applier.apply(completing.partGone(id, n.name(), now));
        }
    }

    /**
     * The controller's periodic tick (every {@link #TICK}, controller thread): first notices whether the controller
     * itself could not run since the previous tick (a gap on its monotonic clock past the pause threshold), and if so
     * gives every node a fresh window; then sets DOWN the nodes silent for longer than SlurmdTimeout ({@link
     * NodeLiveness#silentTooLong}).
     */
    void checkTimeouts() {
        long nanos = monotonic.getAsLong();
        if (ticked) {
            Duration gap = Duration.ofNanos(nanos - lastTickNanos);
            if (NodeLiveness.isPause(gap, pauseThreshold)) {
                metrics.paused(gap);
                watchAfresh(String.format("the controller could not run for %.1f s (ticks %d ms apart, threshold %d ms)",
                        gap.toMillis() / 1000.0, gap.toMillis(), pauseThreshold.toMillis()));
            }
        }
        ticked = true;
        lastTickNanos = nanos;
        if (slurmdTimeout <= 0) {
            return;
        }
        Instant now = clock.instant();
        Duration timeout = Duration.ofSeconds(slurmdTimeout);
        for (NodeRecord n : List.copyOf(state.nodes())) {
            if (NodeLiveness.silentTooLong(n, watchingSince, timeout, now)) {
                LOG.warn("node {} not responding for {} s: set DOWN", n.name(), slurmdTimeout);
                metrics.nodeNotResponding();
                applier.apply(NodeLiveness.notResponding(n, "Not responding", true));
                failJobsOf(n.name());
            }
        }
    }

    /** Requeues or ends the jobs of a node that stopped responding ({@link NodeFailurePolicy}; controller thread). */
    private void failJobsOf(String node) {
        Instant now = clock.instant();
        for (NodeFailurePolicy.Outcome o : NodeFailurePolicy.onNodeDown(List.copyOf(state.jobs()), node)) {
            JobRecord j = o.job();
            applier.apply(switch (o) {
                case NodeFailurePolicy.Requeue r -> completing.nodeDown(j, node, true, "node " + node + " not responding", now);
                case NodeFailurePolicy.NodeFail f -> {
                    LOG.warn("job {} ends NODE_FAIL: node {} not responding", j.id(), node);
                    yield completing.nodeDown(j, node, false, "node " + node + " not responding", now);
                }
                // no report will come from that node: its part counts as gone; the job is released with its last part
                case NodeFailurePolicy.EndCompleting c -> completing.partGone(j.id(), node, now);
            });
        }
    }
}
