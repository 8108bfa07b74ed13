package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.credential.CredentialKeys;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.control.StepRegistry;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JobStore;
import dev.gantry.scheduler.store.StateStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real {@link Controller} over an in-memory store, with no agents and no select-svc: for testing what the
 * controller decides (submissions, job controls, pending reasons) through its public methods. Time is set by hand.
 */
final class ControllerHarness implements AutoCloseable {

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
    /** The in-memory store, or null when the harness runs over another {@link JobStore} ({@link #jobStore}). */
    final MemoryStore store;
    final JobStore jobStore;
    final GroupCommitWriter writer;
    /** Fake agents serve plaintext on loopback (the transport's TLS is tested in common's InternalServerTest). */
    final AgentGateway agents = new AgentGateway((node, address) ->
            io.grpc.ManagedChannelBuilder.forTarget(address).usePlaintext().build());
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
        InstantSource clock = now::get;
        controller = new Controller(config, store, stateStore, writer, new EventLog(), agents,
                new CredentialSigner(CredentialKeys.generate()), clock, new SchedulerMetrics(registry));
    }

    /** Registers {@code nodes} with their agent at {@code address}, as its RegisterNode would, at the harness's now. */
    void register(String address, String... nodes) {
        controller.run(() -> {
            for (String n : nodes) {
                controller.state.putNode(controller.state.node(n).registeredAt(address, now.get(), now.get(), false, null));
            }
        }).join();
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
    }
}
