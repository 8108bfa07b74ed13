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
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node agents' registrations and heartbeats, and SlurmdTimeout: a node whose heartbeats stop is set DOWN
 * (not responding) and its jobs requeued or ended NODE_FAIL ({@link NodeFailurePolicy}). A registering agent whose hardware is below its config is drained, as slurmctld does.
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
            NodeRecord updated = n.registeredAt(r.getAgentAddress(), r.getStepAddress().isEmpty() ? r.getAgentAddress() : r.getStepAddress(),
                    now, boot, low != null, low);
            applier.apply(NodeLiveness.registered(updated));
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
                    LOG.warn("node {} runs job {} (run {}), which is over here; terminating it", n.name(), id, run);
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

    /** Records a heartbeat that carries no usage. */
    public CompletableFuture<String> heartbeat(String node) {
        return heartbeat(node, Map.of());
    }

    /**
     * Records a heartbeat; answers the epoch only when the node is registered with this controller (else ""). {@code
     * usageRuns}: the run each usage report of the heartbeat names, by job id; usage of another run of a job than its
     * current one is ignored and counted ({@link JobExit#otherRun}).
     */
    public CompletableFuture<String> heartbeat(String node, Map<Long, Integer> usageRuns) {
        return CompletableFuture.supplyAsync(() -> {
            NodeRecord n = state.node(node);
            if (n == null || !n.registered()) {
                return "";
            }
            applier.apply(NodeLiveness.heartbeat(n, clock.instant()));
            usageRuns.forEach((id, run) -> {
                JobRecord j = state.job(id);
                if (j != null && !JobExit.ofCurrentRun(j, run)) {
                    applier.apply(JobExit.otherRun(j, JobExit.ReportKind.USAGE, node, run));
                }
            });
            return events.epoch();
        }, onController);
    }

    /** Sets nodes DOWN whose last heartbeat is older than SlurmdTimeout (controller thread). */
    void checkTimeouts() {
        if (slurmdTimeout <= 0) {
            return;
        }
        Instant cutoff = clock.instant().minusSeconds(slurmdTimeout);
        for (NodeRecord n : List.copyOf(state.nodes())) {
            if (n.registered() && !n.notResponding() && n.lastSeen() != null && n.lastSeen().isBefore(cutoff)) {
                LOG.warn("node {} not responding for {} s: set DOWN", n.name(), slurmdTimeout);
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
