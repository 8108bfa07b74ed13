package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.QosConfig;
import dev.gantry.scheduler.access.Redaction;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.cycle.Eligibility;
import dev.gantry.scheduler.cycle.MainPass;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.preempt.PreemptSettings;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.PendingReason;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JobStore;
import dev.gantry.scheduler.store.StateStore;
import dev.gantry.scheduler.priority.UsageSnapshot;
import dev.gantry.scheduler.store.StoreException;
import dev.gantry.scheduler.control.ArraySpec;
import dev.gantry.scheduler.control.DependencyPolicy;
import dev.gantry.scheduler.control.InvalidControlException;
import dev.gantry.scheduler.submit.SubmissionPolicy;
import dev.gantry.scheduler.submit.SubmitTerms;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of job and node state (Slurm's slurmctld core). Every change happens on one thread, the
 * controller thread, in this order: decide, persist (through the group-commit writer), publish on the event
 * stream, then tell agents. Public methods may be called from any thread; they return futures completed on
 * the controller thread (or, for writes that must be durable, once committed).
 */
public final class Controller implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);

    final ClusterState state;
    final EventLog events;
    final GroupCommitWriter writer;
    final InstantSource clock;
    final SchedulerMetrics metrics;
    final JobLauncher launcher;
    private final SubmissionPolicy policy;
    private final SubmitTerms terms;
    final StateStore stateStore;
    final Priorities priorities;
    /** The QOS in force: the config's, as edited through UpdateQos (controller thread). */
    final QosTable qos;
    /** PreemptType and modes, with the QOS in force (controller thread writes, the scheduling thread reads). */
    private volatile PreemptSettings preempt;
    private final ClusterConfig config;
    /** Array id → its tasks' job ids (controller thread). */
    private final java.util.Map<Long, List<Long>> arrays = new java.util.HashMap<>();
    public final JobCommands commands = new JobCommands(this);
    public final GangSlices gang = new GangSlices(this);
    /** scontrol suspend and resume. */
    public final ManualSuspension suspension = new ManualSuspension(this);
    final JobDependencies dependencies = new JobDependencies(this);
    /** When a pass last considered each pending job, and which (scontrol LastSchedEval, Scheduler=). */
    final SchedEvals schedEvals = new SchedEvals();
    /** Where each job that holds resources may still have processes (COMPLETING until every node's part is gone). */
    final CompletingJobs completing = new CompletingJobs(this);
    private final int maxArraySize;
    private final ExecutorService thread;
    /** The controller thread as an executor: each task is followed by the flush of the events it published. */
    private final Executor loop;
    private volatile Supplier<Set<Long>> preemptionHolds = Set::of;
    private final long killWait;
    private final long minJobAge;
    private final long overTime;
    private long nextJobId;
    private volatile Runnable scheduleTrigger = () -> {};

    public Controller(ClusterConfig config, JobStore store, GroupCommitWriter writer, EventLog events,
            JobLauncher launcher, InstantSource clock, SchedulerMetrics metrics) throws StoreException {
        this(config, store, new StateStore.InMemory(), writer, events, launcher, clock, metrics);
    }

    /** @param stateStore where QOS edits and the fair-share ledger are kept */
    public Controller(ClusterConfig config, JobStore store, StateStore stateStore, GroupCommitWriter writer,
            EventLog events, JobLauncher launcher, InstantSource clock, SchedulerMetrics metrics) throws StoreException {
        this.config = config;
        this.state = new ClusterState(config);
        this.policy = new SubmissionPolicy(config);
        this.terms = new SubmitTerms(config);
        this.writer = writer;
        this.events = events;
        this.launcher = launcher;
        this.clock = clock;
        this.metrics = metrics;
        this.killWait = config.get(Keys.KILL_WAIT);
        this.minJobAge = config.get(Keys.MIN_JOB_AGE);
        this.overTime = config.get(Keys.OVER_TIME_LIMIT);
        this.maxArraySize = config.get(Keys.MAX_ARRAY_SIZE);
        this.stateStore = stateStore;
        this.qos = new QosTable(config, stateStore);
        UsageSnapshot usage = Priorities.storedUsage(stateStore);
        this.priorities = new Priorities(config, usage, clock.instant());
        if (!qos.all().equals(config.accounting().qos())) {
            priorities.qosChanged(qos.accounting(), clock.instant());
        }
        this.preempt = PreemptSettings.of(config.withAccounting(qos.accounting()));
        List<JobRecord> loaded = store.loadCurrent(clock.instant().minusSeconds(minJobAge));
        loaded.forEach(this::remember);
        loaded.stream().filter(ClusterState::holds).forEach(completing::started); // each node shows what is left as it registers
        for (JobRecord j : loaded) {
            if (j.state().holdsResources() && j.startTime() != null) {
                // charged up to the snapshot; a job started after it is charged from its start
                Instant from = usage == null || j.startTime().isAfter(usage.asOf()) ? j.startTime() : usage.asOf();
                priorities.started(j, from);
            }
        }
        this.nextJobId = Math.max(config.get(Keys.FIRST_JOB_ID), store.maxJobId() + 1);
        this.thread = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("controller").factory());
        this.loop = task -> thread.execute(() -> {
            try {
                task.run();
            } finally {
                events.flush();
            }
        });
        launcher.bind(this);
        LOG.info("loaded {} job(s); next job id {}", loaded.size(), nextJobId);
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

    // ---------------------------------------------------------------- submit and cancel

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
    public CompletableFuture<Long> submit(JobSpec spec) {
        return call(() -> {
            Instant now = clock.instant();
            return switch (policy.check(spec)) {
                case SubmissionPolicy.Rejected r -> throw new RejectedSubmission(r.message());
                case SubmissionPolicy.Accepted a -> {
                    ArraySpec array;
                    try {
                        array = spec.getArray().isBlank() ? null
                                : ArraySpec.parse(spec.getArray(), maxArraySize,
                                        config.get(Keys.SCHEDULER_PARAMETERS).maxArrayTasks(maxArraySize));
                    } catch (InvalidControlException e) {
                        throw new RejectedSubmission(e.describe());
                    }
                    int count = array == null ? 1 : array.count();
                    JobControls controls = switch (terms.resolve(spec, qos.all(), a.partitions(),
                            q -> activeJobs(spec.getUser(), q), count)) {
                        case SubmitTerms.Refused r -> throw new RejectedSubmission(r.message());
                        case SubmitTerms.Resolved r -> r.controls();
                    };
                    try {
                        if (!controls.dependency().isEmpty()) {
                            DependencyPolicy.checkAtSubmit(dependencies.parse(controls.dependency()), 0, dependencies);
                        }
                    } catch (InvalidControlException e) {
                        throw new RejectedSubmission(e.describe());
                    }
                    int[] tasks = array == null ? new int[] {-1} : array.taskIds();
                    long first = nextJobId;
                    nextJobId += tasks.length;
                    List<JobRecord> jobs = new ArrayList<>(tasks.length);
                    for (int i = 0; i < tasks.length; i++) {
                        long id = first + i;
                        JobControls c = array == null ? controls
                                : controls.forTask(first, tasks[i], spec.getArray().trim(), array.maxRunning());
                        JobRecord job = new JobRecord(id, spec, a.name(), spec.getUser(), spec.getUid(), spec.getGid(),
                                a.partitions(), a.ask(), a.timeLimitSeconds(), JobState.PENDING, false, PendingReason.NONE,
                                a.partitions().get(0), List.of(), now, null, null, now, 0, 0, basicPriority(id), c, null, 0);
                        jobs.add(job.toBuilder().priority(priorities.initial(job, job.priority(), now)).build());
                    }
                    yield jobs;
                }
            };
        }).thenCompose(jobs -> CompletableFuture.allOf(jobs.stream().map(writer::write).toArray(CompletableFuture[]::new))
                .thenApplyAsync(v -> {
                    for (JobRecord job : jobs) {
                        remember(job);
                        metrics.submitted(job.partition());
                    }
                    trigger();
                    return jobs.get(0).id();
                }, loop));
    }

    /**
     * A running or suspended job on its way out through the kill sequence: completing, in {@code next} (a final
     * state, or PENDING when it is requeued), its current suspension, if any, counted as suspended time.
     */
    static JobRecord.Builder stopping(JobRecord j, JobState next, Instant now) {
        return j.toBuilder().suspendedSeconds(GangSlices.suspendedUntil(j, now)).state(next, now).completing(true);
    }

    /** Puts a new job into the state, indexing array tasks by their array id (controller thread). */
    private void remember(JobRecord job) {
        state.put(job);
        if (job.controls().isArrayTask()) {
            arrays.computeIfAbsent(job.controls().arrayJobId(), k -> new ArrayList<>()).add(job.id());
        }
    }

    /** What an id given to a job command names: the job, or every known task when it is an array's id. */
    List<JobRecord> targets(long id) {
        List<Long> tasks = arrays.get(id);
        if (tasks != null) {
            return tasks.stream().map(state::job).filter(java.util.Objects::nonNull).toList();
        }
        JobRecord j = state.job(id);
        return j == null ? List.of() : List.of(j);
    }

    // ---------------------------------------------------------------- priority and fair share

    /**
     * Every PriorityCalcPeriod (controller thread): charges running jobs' usage, recomputes the pending jobs'
     * priorities, and stores the usage (off this thread).
     */
    void recalculatePriorities() {
        Instant now = clock.instant();
        List<JobRecord> changed = priorities.recalculate(state.jobs(), now);
        changed.forEach(state::put);
        priorities.store(stateStore, now);
        if (!changed.isEmpty()) {
            trigger();
        }
    }

    /** One sprio row: the factors, and whether an administrator fixed the total. */
    public record PriorityRow(dev.gantry.scheduler.priority.PriorityFactors priority, boolean adminSet) {}

    /** sprio: pending jobs' priority factors, in job id order (controller thread). */
    public CompletableFuture<List<PriorityRow>> priorityFactors(JobQuery query) {
        return call(() -> {
            List<JobRecord> pending = state.jobs().stream()
                    .filter(j -> j.state() == JobState.PENDING && !j.completing() && query.matches(j)).toList();
            var factors = priorities.factors(pending, clock.instant());
            List<PriorityRow> rows = new ArrayList<>(pending.size());
            for (int i = 0; i < pending.size(); i++) {
                rows.add(new PriorityRow(factors.get(i), pending.get(i).controls().adminPriority()));
            }
            return rows;
        });
    }

    /** sshare: every association's shares, usage and factor now (controller thread). */
    public CompletableFuture<List<dev.gantry.scheduler.priority.ShareRow>> shares() {
        return call(() -> priorities.shares(clock.instant()));
    }

    public Priorities prioritiesView() {
        return priorities;
    }

    // ---------------------------------------------------------------- QOS (sacctmgr)

    public CompletableFuture<List<QosConfig>> listQos(List<String> names) {
        return call(() -> qos.list(names));
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
        return call(() -> {
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
            trigger();
            return q;
        });
    }

    /** A new pass's holds, dependencies and limits, counting what runs now (controller thread). */
    /**
     * What a main or backfill pass considers (controller thread): {@link MainPass#prepare}, less the requeued
     * preemption victims held back while their preemptor waits for its other victims ({@link #setPreemptionHolds}).
     */
    MainPass.Input passInput() {
        MainPass.Input in = MainPass.prepare(state, eligibility());
        Set<Long> held = preemptionHolds.get();
        if (held.isEmpty()) {
            return in;
        }
        return new MainPass.Input(
                in.candidates().stream().filter(j -> !held.contains(j.id())).toList(), in.reasons());
    }

    /** The jobs passes leave alone for now (read on the controller thread); the preemption pass sets it. */
    void setPreemptionHolds(Supplier<Set<Long>> holds) {
        this.preemptionHolds = holds;
    }

    Eligibility eligibility() {
        Instant now = clock.instant();
        return new Eligibility(now, state.jobs().stream().filter(ClusterState::holds).toList(), qos.all(),
                dependencies.check(now));
    }

    /** The preemption settings in force (an accepted UpdateQos replaces them); any thread. */
    public PreemptSettings preemptSettings() {
        return preempt;
    }

    /** Whether some partition has BackfillPolicy=PREEMPT (the preemption pass then runs whatever PreemptType says). */
    boolean backfillPreempts() {
        return dev.gantry.scheduler.preempt.BackfillPreemption.anyIn(config.partitions());
    }

    long killWait() {
        return killWait;
    }

    /** TreeWidth: how many nodes each agent forwards a multi-node launch to. */
    int treeWidth() {
        return config.get(Keys.TREE_WIDTH);
    }

    SubmissionPolicy policy() {
        return policy;
    }

    SubmitTerms terms() {
        return terms;
    }

    /** A user's pending and running jobs of a QOS (MaxSubmitJobsPerUser); controller thread. */
    private int activeJobs(String user, String qosName) {
        int n = 0;
        for (JobRecord j : state.jobs()) {
            if (!j.state().isFinished() && j.user().equals(user) && j.controls().qos().equals(qosName)) {
                n++;
            }
        }
        return n;
    }

    /** priority/basic: first in, first out (multifactor priority replaces this). */
    private static long basicPriority(long id) {
        return Math.max(1, 4_294_901_760L - id);
    }

    /** @param error null when cancelled, else Slurm's reason */
    public record CancelOutcome(long jobId, String error) {}

    /** Cancels jobs as scancel does: pending ones end now, running ones go through the kill sequence. */
    public CompletableFuture<List<CancelOutcome>> cancel(List<Long> ids) {
        return cancel(ids, (Requester) null);
    }

    /**
     * scancel by {@code user}: users cancel their own jobs, operators and administrators any ({@link
     * dev.gantry.scheduler.model.Role}); another user's job answers "Access/permission denied". Null: not checked.
     */
    public CompletableFuture<List<CancelOutcome>> cancel(List<Long> ids, String user) {
        return cancel(ids, user == null ? null : Requester.of(config, user, -1));
    }

    /** scancel as {@code who} (null: not checked); cancelling another user's job is audited. */
    public CompletableFuture<List<CancelOutcome>> cancel(List<Long> ids, Requester who) {
        return call(() -> {
            boolean anyJob = who == null || who.privileged();
            String user = who == null ? null : who.user();
            Instant now = clock.instant();
            List<CancelOutcome> out = new ArrayList<>();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (long id : ids) {
                List<JobRecord> targets = targets(id);
                if (targets.isEmpty()) {
                    out.add(new CancelOutcome(id, id > 0 && id < nextJobId
                            ? "Job/step already completing or completed" : "Invalid job id specified"));
                    continue;
                }
                boolean any = false;
                String denied = null;
                for (JobRecord j : targets) {
                    if (!anyJob && !j.user().equals(user)) {
                        denied = "Access/permission denied";
                        continue;
                    }
                    if (j.state().isFinished() || j.completing()) {
                        continue;
                    }
                    if (who != null) {
                        Audit.onJob(now, who, "cancelled", j);
                    }
                    JobRecord next;
                    if (j.state() == JobState.PENDING) {
                        next = j.toBuilder().state(JobState.CANCELLED, now).endTime(now).reason(PendingReason.NONE)
                                .forecast(null).build();
                        metrics.ended(next);
                    } else {
                        next = stopping(j, JobState.CANCELLED, now).endTime(now).build();
                        launcher.terminate(next, killWait, "cancelled");
                    }
                    state.put(next);
                    writes.add(writer.write(next));
                    any = true;
                }
                out.add(new CancelOutcome(id, any ? null : denied != null ? denied : "Job/step already completing or completed"));
            }
            trigger();
            return new CancelBatch(out, writes);
        }).thenCompose(b -> CompletableFuture.allOf(b.writes.toArray(CompletableFuture[]::new)).thenApply(v -> b.outcomes));
    }

    private record CancelBatch(List<CancelOutcome> outcomes, List<CompletableFuture<Void>> writes) {}

    // ---------------------------------------------------------------- starting and ending

    /** Starts a pending job on a checked placement (controller thread). */
    void start(JobRecord job, String partition, List<NodeShare> shares) {
        start(job, partition, shares, false, false, () -> {});
    }

    /**
     * A start by the backfill pass (scontrol Scheduler=Backfill); {@code preemptable} marks the run as started over a
     * reservation (BackfillPolicy=PREEMPT), durably with the job's first running version.
     */
    void startBackfilled(JobRecord job, String partition, List<NodeShare> shares, boolean preemptable) {
        start(job, partition, shares, true, preemptable, () -> {});
    }

    /**
     * The same; {@code byBackfill}: the backfill pass starts it, not the main pass; {@code beforeLaunch} sends the agent
     * calls that must go out before the launch (a preemption's freezes). The launch is prepared (credential signed,
     * request built) before anything is sent, and the write queued after: on a small machine, agents and the
     * committing thread woken earlier take the CPU from this one.
     */
    void start(JobRecord job, String partition, List<NodeShare> shares, boolean byBackfill, boolean backfillPreemptable,
            Runnable beforeLaunch) {
        Instant now = clock.instant();
        JobRecord running = job.toBuilder().state(JobState.RUNNING, now).partition(partition).allocation(shares)
                .startTime(now).reason(PendingReason.NONE).backfillPreemptable(backfillPreemptable)
                .startedByBackfill(byBackfill).build();
        if (gang.startsSuspended(running)) {
            running = running.toBuilder().state(JobState.SUSPENDED, now).build();
        }
        state.put(running);
        JobLauncher.Launch launch = launcher.prepare(running);
        completing.started(running);
        if (running.state() == JobState.RUNNING) {
            priorities.started(running, now);
        }
        events.publish(ClusterEvent.newBuilder().setAllocationAdded(ClusterProtos.allocation(running)));
        publishNodes(shares);
        beforeLaunch.run();
        launch.send();
        writer.write(running);
        metrics.started(running, job.submitTime(), now);
    }

    /** Ends a job whose processes are all gone (controller thread); returns the final version, to persist. */
    JobRecord finish(JobRecord j, JobState end, String reason, int exitCode, int exitSignal, Instant endTime) {
        JobRecord done = j.toBuilder().state(end, clock.instant()).completing(false).reason(reason)
                .exit(exitCode, exitSignal)
                // a cancel records its time; a preemption with GraceTime a deadline, which an earlier exit beats
                .endTime(j.endTime() != null && j.endTime().isBefore(endTime) ? j.endTime() : endTime).build();
        state.put(done);
        priorities.stopped(j, done.endTime());
        completing.released(j, "job ended"); // other nodes' parts still there, if any (a launch that failed, a node DOWN)
        events.publish(ClusterEvent.newBuilder().setAllocationReleased(j.id()));
        publishNodes(j.allocation());
        metrics.ended(done);
        trigger();
        return done;
    }

    /** Puts a job that could not be launched back in the queue, same id (controller thread). */
    void requeue(JobRecord j, String why) {
        JobRecord pending = j.toBuilder().state(JobState.PENDING, clock.instant()).completing(false).allocation(List.of())
                .startTime(null).reason(PendingReason.NONE).controls(j.controls().withRestart()).build();
        state.put(pending);
        priorities.stopped(j, clock.instant());
        completing.released(j, "requeued"); // whatever part of the launch reached the other nodes
        events.publish(ClusterEvent.newBuilder().setAllocationReleased(j.id()));
        publishNodes(j.allocation());
        writer.write(pending);
        LOG.warn("job {} requeued: {}", j.id(), why);
        trigger();
    }

    /**
     * A requeued job (PENDING and completing while its processes were killed) whose processes are gone: its
     * resources go back and it waits in the queue again, same id, one more restart (controller thread).
     */
    JobRecord backInQueue(JobRecord j) {
        JobRecord pending = j.toBuilder().completing(false).allocation(List.of()).startTime(null).endTime(null)
                .controls(j.controls().withRestart()).build();
        state.put(pending);
        priorities.stopped(j, clock.instant());
        completing.released(j, "requeued");
        events.publish(ClusterEvent.newBuilder().setAllocationReleased(j.id()));
        publishNodes(j.allocation());
        trigger();
        return pending;
    }

    void publishNodes(List<NodeShare> shares) {
        for (NodeShare s : shares) {
            events.publish(ClusterEvent.newBuilder().setNodeChanged(ClusterProtos.node(state, state.node(s.node()))));
        }
    }

    /**
     * The job's part on a node ended and none of its processes is left there (the epilog ran): on the batch host, the
     * batch script ended; on another node of a multi-node job, its allocation holder. The job ends with the batch
     * host's report and keeps its resources until every node's part is gone ({@link CompletingJobs}). Idempotent: a
     * repeated or stale report is acknowledged without effect. The future completes once the outcome is durable.
     */
    public CompletableFuture<Void> reportExit(ReportJobExitRequest r) {
        return call(() -> {
            JobRecord j = state.job(r.getJobId());
            if (j == null || !ClusterState.holds(j)) {
                return null;
            }
            if (!r.getNode().equals(j.batchHost())) {
                return completing.partGone(j.id(), r.getNode());
            }
            if (j.completing() && !completing.awaitsBatchHost(j)) {
                return null; // a repeated report: the job already ended there
            }
            PreemptionView.processesGone(this, j, r.hasEndedAt() ? JobProtos.instant(r.getEndedAt()) : clock.instant());
            Instant ended = r.hasEndedAt() ? JobProtos.instant(r.getEndedAt()) : clock.instant();
            if (j.completing() && j.state() == JobState.PENDING) {
                // scontrol requeue: its processes are gone here; it waits again once they are gone everywhere
                return completing.batchEnded(j, JobState.PENDING, j.reason(), 0, 0, ended);
            }
            JobState end;
            String reason;
            if (j.completing() && j.state().isFinished()) {
                end = j.state(); // CANCELLED or TIMEOUT: the kill sequence ended it
                reason = j.reason();
            } else if (r.getLaunchFailed()) {
                end = JobState.FAILED;
                reason = "launch failed: " + r.getReason();
            } else if (r.getOutOfMemory()) {
                end = JobState.OUT_OF_MEMORY; // the kernel killed a process of it at its memory limit
                reason = "OutOfMemory";
            } else if (r.getExitCode() != 0 || r.getExitSignal() != 0) {
                end = JobState.FAILED;
                reason = "NonZeroExitCode";
            } else {
                end = JobState.COMPLETED;
                reason = PendingReason.NONE;
            }
            return completing.batchEnded(j, end, reason, r.getLaunchFailed() ? 1 : r.getExitCode(), r.getExitSignal(), ended);
        }).thenCompose(done -> done == null ? CompletableFuture.completedFuture(null) : writer.write(done));
    }

    /** Ends running jobs past their time limit (plus OverTimeLimit) through the kill sequence. */
    void enforceTimeLimits() {
        Instant now = clock.instant();
        for (JobRecord j : List.copyOf(state.jobs())) {
            if (j.state() != JobState.RUNNING || j.completing() || j.timeLimitSeconds() < 0 || overTime < 0) {
                continue;
            }
            // as Slurm: time spent suspended does not count against the limit
            if (!now.isBefore(j.startTime().plusSeconds(j.timeLimitSeconds() + j.suspendedSeconds() + overTime))) {
                JobRecord t = j.toBuilder().state(JobState.TIMEOUT, now).completing(true).endTime(now)
                        .reason("TimeLimit").build();
                state.put(t);
                writer.write(t);
                launcher.terminate(t, killWait, "time limit");
                LOG.info("job {} reached its time limit", j.id());
            }
        }
    }

    /** Forgets finished jobs older than MinJobAge (they stay in the database for GetJob and accounting). */
    void purgeOld() {
        Instant cutoff = clock.instant().minusSeconds(minJobAge);
        List<Long> old = state.jobs().stream()
                .filter(j -> j.state().isFinished() && !j.completing() && j.endTime() != null && j.endTime().isBefore(cutoff))
                .map(JobRecord::id).toList();
        old.forEach(state::purge);
        arrays.values().forEach(tasks -> tasks.removeIf(id -> state.job(id) == null));
        arrays.values().removeIf(List::isEmpty);
    }

    // ---------------------------------------------------------------- queries

    /** Jobs as the API shows them whole, filtered (controller thread). */
    public CompletableFuture<List<Job>> listJobs(JobQuery query) {
        return call(() -> {
            JobAnswers answers = new JobAnswers(this);
            return state.jobs().stream().filter(query::matches).map(answers::of).toList();
        });
    }

    /**
     * Jobs as {@code who} may see them, filtered: with PrivateData=jobs only their own unless privileged, and without
     * script and environment where they are not the owner, an operator or an administrator ({@link Visibility}).
     */
    public CompletableFuture<List<Job>> listJobs(JobQuery query, Requester who, Visibility visibility) {
        return call(() -> {
            JobAnswers answers = new JobAnswers(this);
            List<Job> out = new ArrayList<>();
            for (JobRecord j : state.jobs()) {
                if (query.matches(j) && visibility.seesJob(who, j.user())) {
                    Job shown = answers.of(j);
                    out.add(visibility.seesJobInFull(who, j.user()) ? shown : Redaction.withoutPrivateParts(shown));
                }
            }
            return out;
        });
    }

    public CompletableFuture<Job> findJob(long id) {
        return call(() -> {
            JobRecord j = state.job(id);
            return j == null ? null : new JobAnswers(this).of(j);
        });
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
