package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.NodeHardware;
import dev.gantry.api.v1.RegisterNodeRequest;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.control.StepRegistry;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.lifecycle.Start;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JobStore;
import dev.gantry.scheduler.store.StateStore;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real {@link Controller} over an in-memory store, with no select-svc: for testing what the controller decides
 * (submissions, job controls, pending reasons) through its public methods. Time is set by hand. Jobs change state only
 * through the controller's own paths, as in production: nodes register ({@link #registerNodes}, {@link #register}), a
 * job starts as a pass starts it ({@link #startOn}) and ends with its agent's exit report ({@link #finish}, {@link
 * #killed}); nothing writes its {@link ClusterState} but the controller.
 */
final class ControllerHarness implements AutoCloseable {

    /** How an agent address names an in-process server. */
    private static final String IN_PROCESS = "in-process:";

    /** Keeps the newest version of every job, and the steps as the step changes leave them. */
    static final class MemoryStore implements JobStore {
        final Map<Long, JobRecord> jobs = new TreeMap<>();
        final Map<String, StepRegistry.Step> steps = new TreeMap<>();
        final Map<Long, Integer> nextStepIds = new TreeMap<>();

        @Override
        public synchronized void write(List<JobRecord> batch, List<StepChange> stepChanges) {
            batch.forEach(j -> jobs.put(j.id(), j));
            for (StepChange c : stepChanges) {
                switch (c) {
                    case StepChange.Created created -> {
                        steps.put(created.step().id(), created.step());
                        nextStepIds.merge(c.jobId(), created.step().stepId() + 1, Math::max);
                    }
                    case StepChange.Ended ended -> steps.remove(ended.jobId() + "." + ended.stepId());
                    case StepChange.JobGone gone -> {
                        steps.values().removeIf(s -> s.jobId() == gone.jobId());
                        nextStepIds.remove(gone.jobId());
                    }
                }
            }
        }

        @Override
        public synchronized StoredSteps loadSteps() {
            return new StoredSteps(List.copyOf(steps.values()), Map.copyOf(nextStepIds));
        }

        @Override
        public synchronized List<JobRecord> loadCurrent(Instant finishedSince) {
            return new ArrayList<>(jobs.values());
        }

        @Override
        public synchronized Optional<JobRecord> find(long jobId) {
            return Optional.ofNullable(jobs.get(jobId));
        }

        @Override
        public synchronized long maxJobId() {
            return jobs.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }

    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-22T06:00:00Z"));
    /** The controller's monotonic clock, in nanoseconds, as its pause watch reads it; set by hand like {@link #now}. */
    final AtomicLong nanos = new AtomicLong();
    /** The in-memory store, or null when the harness runs over another {@link JobStore} ({@link #jobStore}). */
    final MemoryStore store;
    final JobStore jobStore;
    final GroupCommitWriter writer;
    /**
     * The harness's own agent ({@link #registerNodes}), served in process at {@link #agentAddress}. Its terminates
     * answer that the job was running: a killed job stays completing until the test reports its end ({@link #killed}).
     */
    final FakeAgent agent = new FakeAgent();
    final String agentAddress = IN_PROCESS + InProcessServerBuilder.generateName();
    private final Server agentServer;
    /**
     * Tests' own agents serve plaintext on loopback (the transport's TLS is tested in common's InternalServerTest);
     * the harness's own is in process.
     */
    final AgentGateway agents = new AgentGateway((node, address) -> address.startsWith(IN_PROCESS)
            ? InProcessChannelBuilder.forName(address.substring(IN_PROCESS.length())).build()
            : ManagedChannelBuilder.forTarget(address).usePlaintext().build());
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Controller controller;

    ControllerHarness(String configText) throws Exception {
        this(configText, new MemoryStore(), new StateStore.InMemory());
    }

    /** A controller starting from what another left in {@code store} and {@code stateStore} (a restart). */
    ControllerHarness(String configText, MemoryStore store, StateStore stateStore) throws Exception {
        this(configText, (JobStore) store, stateStore);
    }

    /** A controller over any job store, e.g. PostgreSQL's, starting from what it holds. */
    ControllerHarness(String configText, JobStore store, StateStore stateStore) throws Exception {
        this.store = store instanceof MemoryStore m ? m : null;
        this.jobStore = store;
        this.writer = new GroupCommitWriter(store, n -> {});
        ClusterConfig config = ConfigParser.parse(Path.of("test.conf"), configText);
        agent.wasRunning = true;
        agentServer = InProcessServerBuilder.forName(agentAddress.substring(IN_PROCESS.length())).addService(agent)
                .build().start();
        InstantSource clock = now::get;
        controller = new Controller(config, store, stateStore, writer, new EventLog(), agents,
                new CredentialSigner(CredentialKeys.generate()), clock, new SchedulerMetrics(registry));
        controller.nodes.measurePausesWith(nanos::get);
        controller.nodes.countWith(new LivenessMetrics(registry));
    }

    /** Registers {@code nodes} with the harness's {@link #agent} ({@link #register}). */
    void registerNodes(String... nodes) {
        register(agentAddress, nodes);
    }

    /**
     * Registers {@code nodes} with their agent at {@code address} through the controller's RegisterNode ({@link
     * NodeTracker#register}), at the harness's now: hardware as configured, and still running the jobs the controller
     * has on them (none before any starts; after a restart, what the agent kept running).
     */
    void register(String address, String... nodes) {
        for (String n : nodes) {
            RegisterNodeRequest request = controller.call(() -> {
                NodeConfig config = controller.state.node(n).config();
                return RegisterNodeRequest.newBuilder().setNode(n).setAgentAddress(address)
                        .setHardware(NodeHardware.newBuilder().setCpus(config.cpus()).setRealMemoryMb(config.realMemoryMb()))
                        .addAllRunningJobIds(controller.state.jobs().stream()
                                .filter(j -> ClusterState.holds(j) && j.nodeNames().contains(n)).map(JobRecord::id).toList())
                        .build();
            }).join();
            if (!(controller.nodes.register(request).join() instanceof NodeTracker.Accepted)) {
                throw new IllegalArgumentException("node " + n + " is not in the config");
            }
        }
    }

    /**
     * Starts pending job {@code id} in {@code partition} on {@code shares} as a main pass does with a placement it has
     * checked ({@link PassContext#start}): the job is RUNNING (or SUSPENDED when gang scheduling says so), charged, its
     * allocation published and its launch sent to the batch host's agent. The batch host must be registered.
     */
    void startOn(long id, String partition, NodeShare... shares) {
        controller.run(() -> {
            if (!controller.state.node(shares[0].node()).registered()) {
                throw new IllegalStateException("batch host " + shares[0].node() + " is not registered: the launch would fail");
            }
            controller.passes.start(controller.state.job(id), Start.Placement.of(partition, List.of(shares)));
        }).join();
    }

    /** The batch host's agent reports that job {@code id}'s batch script ended with {@code exitCode} (ReportJobExit). */
    void finish(long id, int exitCode) {
        reportExit(id, exitCode, 0);
    }

    /** The batch host's agent reports that the kill sequence ended job {@code id}'s processes (SIGKILL; ReportJobExit). */
    void killed(long id) {
        reportExit(id, 0, 9);
    }

    /**
     * The batch host's agent reports that run {@code run} of job {@code id} (its restart count then) ended with {@code
     * exitCode} (ReportJobExit naming the run).
     */
    void finishRun(long id, int run, int exitCode) {
        controller.lifecycle.reportExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode(job(id).batchHost())
                .setExitCode(exitCode).setRestartCount(run).build()).join();
    }

    private void reportExit(long id, int exitCode, int exitSignal) {
        controller.lifecycle.reportExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode(job(id).batchHost())
                .setExitCode(exitCode).setExitSignal(exitSignal).build()).join();
    }

    /** gang-svc's ApplySlice, decided on a view of the controller's latest revision. */
    GangSlices.SliceOutcome slice(List<Long> suspend, List<Long> resume) {
        long revision = controller.call(() -> controller.events.revision()).join();
        return controller.gang.applySlice(revision, suspend, resume).join();
    }

    JobRecord job(long id) {
        return controller.call(() -> controller.state.job(id)).join();
    }

    /** One main pass's first half: the candidates' ids, and the reasons of the rest. */
    MainPass.Input prepare() {
        return controller.call(controller.passes::queue).join();
    }

    List<Long> candidates() {
        return prepare().candidates().stream().map(JobRecord::id).toList();
    }

    @Override
    public void close() {
        controller.close();
        writer.close();
        agents.close();
        agentServer.shutdownNow();
    }
}
