package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.scheduler.lifecycle.Admission;
import dev.gantry.scheduler.lifecycle.Decision;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.priority.UsageSnapshot;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JobStore;
import dev.gantry.scheduler.store.StateStore;
import dev.gantry.scheduler.store.StoreException;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of job and node state (Slurm's slurmctld core): the controller thread, and the parts that act on
 * it. Every change happens on that thread: a transition decides ({@code dev.gantry.scheduler.lifecycle}), and the
 * {@link LifecycleApplier} puts its records into the {@link ClusterState} (which checks the thread) and carries out its
 * effects in one order. Public methods may be called from any thread; they return futures completed on the controller
 * thread (or, for writes that must be durable, once committed).
 */
public final class Controller implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);

    final ClusterState state;
    final EventLog events;
    final GroupCommitWriter writer;
    final InstantSource clock;
    final SchedulerMetrics metrics;
    final JobLauncher launcher;
    final StateStore stateStore;
    final Priorities priorities;
    /** The QOS in force: the config's, as edited through UpdateQos (controller thread). */
    final QosTable qos;
    /** Where each job that holds resources may still have processes (COMPLETING until every node's part is gone). */
    final CompletingJobs completing;
    /** What a job id names: the job, or an array's tasks (controller thread). */
    final JobIndex index;
    final JobDependencies dependencies;
    /** When a pass last considered each pending job, and which (scontrol LastSchedEval, Scheduler=). */
    final SchedEvals schedEvals = new SchedEvals();
    /** Carries out the lifecycle's decisions: the one writer of {@link #state}. */
    final LifecycleApplier applier;
    final Submissions submissions;
    /** sacctmgr's QOS, sprio, sshare, and the preemption settings the QOS make. */
    public final AccountingCommands accounting;
    /** scancel, the agents' exit reports, time limits and MinJobAge. */
    public final LifecycleCommands lifecycle;
    /** GetJob and ListJobs. */
    public final JobQueries queries;
    /** scontrol hold, release, requeue, update, top; scancel --signal. */
    public final JobCommands commands;
    /** Agents' registrations and heartbeats, and SlurmdTimeout. */
    public final NodeTracker nodes;
    /** gang-svc's slices and shadows. */
    public final GangSlices gang;
    /** scontrol suspend and resume. */
    public final ManualSuspension suspension;
    /** What the scheduling passes use of it. */
    final PassContext passes;
    private final ExecutorService thread;
    /** The controller thread as an executor: each task is followed by the flush of the events it published. */
    private final Executor loop;
    private volatile Runnable scheduleTrigger = () -> {};

    /**
     * @param stateStore where QOS edits and the fair-share ledger are kept
     * @param agents the node agents, which the controller's {@link JobLauncher} calls
     * @param signer signs launch and step credentials
     */
    public Controller(ClusterConfig config, JobStore store, StateStore stateStore, GroupCommitWriter writer,
            EventLog events, AgentGateway agents, CredentialSigner signer, InstantSource clock, SchedulerMetrics metrics)
            throws StoreException {
        this.state = new ClusterState(config);
        this.completing = new CompletingJobs(state);
        this.index = new JobIndex(state);
        this.dependencies = new JobDependencies(state, index);
        this.writer = writer;
        this.events = events;
        this.clock = clock;
        this.metrics = metrics;
        this.stateStore = stateStore;
        this.qos = new QosTable(config, stateStore);
        UsageSnapshot usage = Priorities.storedUsage(stateStore);
        this.priorities = new Priorities(config, usage, clock.instant());
        if (!qos.all().equals(config.accounting().qos())) {
            priorities.qosChanged(qos.accounting(), clock.instant());
        }
        ThreadFactory named = Thread.ofPlatform().name("controller").factory();
        // the state is handed to the controller thread as that thread is made: at the first task, once the jobs are loaded
        this.thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = named.newThread(task);
            state.handOverTo(t);
            return t;
        });
        this.loop = task -> thread.execute(() -> {
            try {
                task.run();
            } finally {
                events.flush();
            }
        });
        // the launcher carries its agents' answers out through the applier, which launches through it
        this.launcher = new JobLauncher(config, state, completing, agents, signer, metrics, clock, loop, this::carryOut);
        this.applier = new LifecycleApplier(state, priorities, completing, events, launcher, writer, metrics,
                config.get(Keys.KILL_WAIT), this::trigger);
        List<JobRecord> loaded = store.loadCurrent(clock.instant().minusSeconds(config.get(Keys.MIN_JOB_AGE)));
        applier.apply(Admission.loaded(loaded, usage == null ? null : usage.asOf()));
        loaded.forEach(index::add);
        this.submissions = new Submissions(config, state, qos, dependencies, priorities, index, applier, store.maxJobId());
        CompletableFuture.runAsync(() -> {}, thread).join();
        this.accounting = new AccountingCommands(config, state, qos, priorities, stateStore, applier, clock, loop, this::trigger);
        this.lifecycle = new LifecycleCommands(config, state, completing, index, submissions, accounting, applier, clock, loop);
        this.queries = new JobQueries(state, accounting, schedEvals, clock, loop);
        this.commands = new JobCommands(state, index, submissions, qos, dependencies, launcher, applier, clock, loop,
                this::trigger);
        this.suspension = new ManualSuspension(config, state, commands, applier, clock);
        this.nodes = new NodeTracker(config, state, completing, launcher, applier, events, clock, loop, this::trigger);
        this.gang = new GangSlices(state, events, applier, accounting, metrics, clock, loop, this::trigger);
        this.passes = new PassContext(config, state, events, applier, clock, metrics, schedEvals, accounting, qos,
                dependencies, gang, loop, this::trigger);
        LOG.info("loaded {} job(s); next job id {}", loaded.size(), submissions.nextJobId());
    }

    /** Runs on the controller thread. */
    public <T> CompletableFuture<T> call(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, loop);
    }

    public CompletableFuture<Void> run(Runnable work) {
        return CompletableFuture.runAsync(work, loop);
    }

    /** Called after anything that may let a pending job start. */
    public void setScheduleTrigger(Runnable trigger) {
        this.scheduleTrigger = trigger;
    }

    void trigger() {
        scheduleTrigger.run();
    }

    /** What the launcher decides from an agent's answer, carried out (controller thread). */
    private void carryOut(Decision decision) {
        applier.apply(decision);
    }

    /** Job steps (srun) on this controller, taking back the steps {@code stored} of the jobs still running. */
    JobSteps steps(JobStore.StoredSteps stored) {
        return new JobSteps(state, launcher, writer, metrics, clock, loop, stored);
    }

    /** WatchJobs over this controller's jobs, the watchers' backlogs sharing {@code budget}. */
    JobWatch jobWatch(FeedBudget budget, Consumer<StreamFeed.Overflow> onOverflow) {
        return new JobWatch(state, queries::answers, loop, budget, onOverflow);
    }

    /** A submission the policy refused; nothing was stored. */
    public static final class RejectedSubmission extends RuntimeException {
        public RejectedSubmission(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Validates, stores durably, and queues a job (or every task of a job array, with consecutive ids); the future
     * yields the job's id (the array's id) once all of it is committed.
     */
    public CompletableFuture<Long> submit(JobRequest request) {
        var outage = writer.availability().outage();
        if (outage.isPresent()) {
            return CompletableFuture.failedFuture(outage.get()); // nothing accepted
        }
        // the job is queued once committed, however late (so memory never lacks a stored job); the caller is answered
        // UNAVAILABLE if the database goes away first: not acknowledged, though it may still run
        return call(() -> submissions.accept(request, clock.instant()))
                .thenCompose(jobs -> writer.availability().unlessDown(
                        CompletableFuture.allOf(jobs.stream().map(writer::commit).toArray(CompletableFuture[]::new))
                                .thenApplyAsync(v -> submissions.queued(jobs), loop)));
    }

    public String epoch() {
        return events.epoch();
    }

    /** The controller's state: read it on the controller thread only ({@link #call}, {@link #run}). */
    public ClusterState state() {
        return state;
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
