package dev.gantry.agent.grpc;

import com.google.protobuf.Timestamp;
import dev.gantry.agent.job.JobRun;
import dev.gantry.agent.node.HubLink;
import dev.gantry.agent.node.NodeIdentity;
import dev.gantry.agent.process.UsageSample;
import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.HeartbeatRequest;
import dev.gantry.api.v1.HeartbeatResponse;
import dev.gantry.api.v1.JobUsage;
import dev.gantry.api.v1.NodeHardware;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.RegisterNodeResponse;
import dev.gantry.api.v1.RunningJob;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node registered with the controller's AgentHub: RegisterNode, then Heartbeat every interval,
 * registering again after a failure or an epoch change, as {@link HubLink} decides. Calls run one at a time on
 * the scheduler, never on a gRPC thread. Logs once per change of the link's state.
 */
public final class HubSession implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HubSession.class);

    private final AgentHubGrpc.AgentHubBlockingStub hub;
    private final NodeIdentity node;
    private final Supplier<List<JobRun>> runningJobs;
    private final Supplier<List<UsageSample>> usage;
    private final ScheduledExecutorService scheduler;
    private final HubLink link;
    private final Duration callDeadline;
    /** Run after each successful registration (the exit reports waiting for a retry go at once). */
    private volatile Runnable onRegistered = () -> {};
    private ScheduledFuture<?> next;
    /** The action {@link #next} runs. */
    private HubLink.Action pending = HubLink.Action.REGISTER;
    private boolean closed;

    /** @param runningJobs the jobs this node runs with their runs, listed in every registration and heartbeat */
    public HubSession(AgentHubGrpc.AgentHubBlockingStub hub, NodeIdentity node, Supplier<List<JobRun>> runningJobs,
            ScheduledExecutorService scheduler, HubLink link, Duration callDeadline) {
        this(hub, node, runningJobs, List::of, scheduler, link, callDeadline);
    }

    /** @param usage what the running jobs used so far, sent with every heartbeat (accounting, fair share) */
    public HubSession(AgentHubGrpc.AgentHubBlockingStub hub, NodeIdentity node, Supplier<List<JobRun>> runningJobs,
            Supplier<List<UsageSample>> usage, ScheduledExecutorService scheduler, HubLink link, Duration callDeadline) {
        this.hub = hub;
        this.node = node;
        this.runningJobs = runningJobs;
        this.usage = usage;
        this.scheduler = scheduler;
        this.link = link;
        this.callDeadline = callDeadline;
    }

    /** {@code action} runs after each successful registration, on the session's thread. */
    public void onRegistered(Runnable action) {
        this.onRegistered = action;
    }

    public synchronized void start() {
        if (next == null && !closed) {
            schedule(link.start());
        }
    }

    /**
     * The next call now rather than after its wait (the connection to the controller was lost or made again): a
     * heartbeat finds a restarted controller at once and registers with it. Nothing when a call is under way (its
     * outcome schedules the next) or the session is closed. Any thread.
     */
    public synchronized void nudge() {
        if (closed || next == null || !next.cancel(false)) {
            return;
        }
        schedule(new HubLink.Step(pending, Duration.ZERO, Optional.empty()));
    }

    /** The epoch of the controller this node is registered with, or empty while it is not. */
    public synchronized Optional<String> controllerEpoch() {
        return link.epoch();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (next != null) {
            next.cancel(false);
        }
    }

    private void schedule(HubLink.Step step) {
        pending = step.action();
        try {
            next = scheduler.schedule(() -> run(step.action()), step.after().toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            closed = true;
        }
    }

    private void run(HubLink.Action action) {
        HubLink.Step step = switch (action) {
            case REGISTER -> register();
            case HEARTBEAT -> heartbeat();
        };
        synchronized (this) {
            step.news().ifPresent(news -> {
                if (step.action() == HubLink.Action.HEARTBEAT) {
                    LOG.info("{}: {}", node.name(), news);
                } else {
                    LOG.warn("{}: {}", node.name(), news);
                }
            });
            if (!closed) {
                schedule(step);
            }
        }
    }

    private HubLink.Step register() {
        List<JobRun> running = runningJobs.get();
        RegisterNodeRequest request = RegisterNodeRequest.newBuilder()
                .setNode(node.name())
                .setAgentAddress(node.agentAddress())
                .setStepAddress(node.stepAddress())
                .setHardware(NodeHardware.newBuilder()
                        .setCpus(node.hardware().cpus())
                        .setSockets(node.hardware().sockets())
                        .setCoresPerSocket(node.hardware().coresPerSocket())
                        .setThreadsPerCore(node.hardware().threadsPerCore())
                        .setRealMemoryMb(node.hardware().memoryMb()))
                .addAllRunningJobIds(ids(running))
                .addAllRunningJobs(named(running))
                .setBootTime(Timestamp.newBuilder().setSeconds(node.bootTime().getEpochSecond()).setNanos(node.bootTime().getNano()))
                .setVersion(node.version())
                .build();
        try {
            RegisterNodeResponse response = hub.withDeadlineAfter(callDeadline.toMillis(), TimeUnit.MILLISECONDS).registerNode(request);
            onRegistered.run();
            synchronized (this) {
                return link.registered(response.getControllerEpoch(), response.getHeartbeatIntervalSeconds());
            }
        } catch (StatusRuntimeException e) {
            synchronized (this) {
                return link.registerFailed(describe(e));
            }
        }
    }

    private HubLink.Step heartbeat() {
        List<JobRun> running = runningJobs.get();
        HeartbeatRequest.Builder request = HeartbeatRequest.newBuilder().setNode(node.name()).addAllRunningJobIds(ids(running))
                .addAllRunningJobs(named(running));
        for (UsageSample u : usage.get()) {
            JobUsage.Builder b = JobUsage.newBuilder().setJobId(u.jobId()).setCpuSeconds(u.cpuSeconds())
                    .setMaxRssKb(u.maxRssKb()).setRssKb(u.rssKb());
            if (u.run() != JobRun.UNKNOWN) {
                b.setRestartCount(u.run());
            }
            request.addJobUsage(b);
        }
        try {
            HeartbeatResponse response = hub.withDeadlineAfter(callDeadline.toMillis(), TimeUnit.MILLISECONDS).heartbeat(request.build());
            synchronized (this) {
                return link.heartbeatAnswered(response.getControllerEpoch());
            }
        } catch (StatusRuntimeException e) {
            synchronized (this) {
                return link.heartbeatFailed(describe(e));
            }
        }
    }

    static String describe(StatusRuntimeException e) {
        String description = e.getStatus().getDescription();
        return e.getStatus().getCode() + (description == null ? "" : ": " + description);
    }

    /** The bare ids, for older controllers (running_job_ids). */
    private static List<Long> ids(List<JobRun> running) {
        return running.stream().map(JobRun::jobId).toList();
    }

    /** The jobs with their runs (running_jobs); a job whose run is not known is left out there (its id is listed). */
    private static List<RunningJob> named(List<JobRun> running) {
        return running.stream().filter(JobRun::named)
                .map(r -> RunningJob.newBuilder().setJobId(r.jobId()).setRestartCount(r.run()).build()).toList();
    }
}
