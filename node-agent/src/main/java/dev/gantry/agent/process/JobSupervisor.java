package dev.gantry.agent.process;

import dev.gantry.agent.job.AllocationHolder;
import dev.gantry.agent.job.ControlOutcome;
import dev.gantry.agent.job.EarlyControls;
import dev.gantry.agent.job.ExitStatus;
import dev.gantry.agent.job.JobRun;
import dev.gantry.agent.job.AgentJobState;
import dev.gantry.agent.job.JobUser;
import dev.gantry.agent.job.LaunchGuard;
import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.job.Signals;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.common.credential.CredentialException;
import dev.gantry.common.credential.CredentialVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs of this node (slurmd's job table): launches them after checking their credential, delivers
 * signals, suspends and resumes them, runs the kill sequence, and, once a batch script has exited and no
 * process of its job is left, hands the exit (with its usage and whether it ran out of memory) to the
 * {@link ExitSink}. The table is mirrored on disk ({@link JobTableStore}) so that a restarted agent re-adopts the
 * jobs its predecessor left running ({@link #adoptFromTable}).
 *
 * <p>Thread-safety: every public method may be called from any thread; state changes happen under this
 * object's lock, and no caller blocks on a process: waiting (kill wait, group emptying) runs as tasks on the
 * given scheduler, and each batch script this run started has one small waiter thread blocked in waitFor until it
 * exits (a re-adopted one is polled in /proc). A job's processes are signalled only while its job is in the table
 * and not yet ending, i.e. before its group was seen empty, so a reused process group id is never signalled.
 */
public final class JobSupervisor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobSupervisor.class);
    /** How long a suspend or resume that came before its run's launch is kept: longer than a credential lives. */
    static final Duration EARLY_CONTROL_MEMORY = Duration.ofMinutes(10);
    static final int EARLY_CONTROL_CAPACITY = 4096;
    /** A waiter thread only blocks in Process.waitFor: a small stack is plenty. */
    private static final long LEADER_WAITER_STACK = 256 * 1024;
    /**
     * How long a launch waits for an earlier run of its job to be killed and gone before it is refused: shorter than the
     * controller's deadline for a launch (30 s), so the controller never gives up on a launch that then starts here.
     */
    static final Duration EARLIER_RUN_WAIT = Duration.ofSeconds(20);

    /** How the supervisor paces its background work. */
    public record Timing(Duration reapPoll, Duration killRepeat, Duration usageSample) {
        public static final Timing DEFAULT = new Timing(Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(1));
    }

    private final String nodeName;
    private final CredentialVerifier verifier;
    private final LaunchGuard guard;
    private final BatchLauncher launcher;
    private final Containment containment;
    private final JobTableStore table;
    private final JobTasks tasks;
    private final InstantSource clock;
    private final ExitSink sink;
    private final JobTelemetry telemetry;
    private final Timing timing;
    private final Map<Long, RunningJob> jobs = new HashMap<>();
    /** Suspends and resumes that came before the run they name was launched here (guarded by this). */
    private final EarlyControls early;
    private final JobCompletion completion;
    private final ScheduledFuture<?> sampling;

    public JobSupervisor(String nodeName, CredentialVerifier verifier, LaunchGuard guard, BatchLauncher launcher,
            Containment containment, JobTableStore table, ScheduledExecutorService scheduler, InstantSource clock,
            ExitSink sink, JobTelemetry telemetry, Timing timing) {
        this.nodeName = nodeName;
        this.verifier = verifier;
        this.guard = guard;
        this.launcher = launcher;
        this.containment = containment;
        this.table = table;
        this.tasks = new JobTasks(scheduler);
        this.clock = clock;
        this.sink = sink;
        this.telemetry = telemetry;
        this.timing = timing;
        this.early = new EarlyControls(clock, EARLY_CONTROL_MEMORY, EARLY_CONTROL_CAPACITY);
        this.completion = new JobCompletion(containment, launcher, table, sink, telemetry, clock, this);
        this.sampling = scheduler.scheduleWithFixedDelay(this::sampleUsage, timing.usageSample().toMillis(),
                timing.usageSample().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * LaunchJob: checks, then starts the batch script; returns once the process exists and the job is in the table
     * on disk (or why nothing runs). The latency reported to the telemetry runs from the credential check to the
     * exec of the job's first process (persisting the table entry and logging come after).
     */
    public LaunchOutcome launch(LaunchJobRequest request) {
        return launch(request, true);
    }

    /**
     * LaunchJob for one node of a multi-node job: the batch host runs the batch script; any other node verifies the
     * same credential (for the same request) and runs an {@link AllocationHolder} in the job's cgroup instead.
     */
    public LaunchOutcome launch(LaunchJobRequest request, boolean batchHost) {
        return prepare(request, batchHost).go();
    }

    /**
     * Checks the launch and prepares it up to the last step ({@link BatchLauncher#prepare}): everything of
     * {@link #launch} but letting the script run, so that a batch host can do it while the launch is forwarded to
     * the job's other nodes. The job is in the table from here on (a terminate meanwhile takes effect once it runs).
     * The latency reported to the telemetry runs from the credential check to the exec of the job's first process.
     */
    public LaunchPreparation prepare(LaunchJobRequest request, boolean batchHost) {
        long begin = System.nanoTime();
        LaunchPreparation p = doPrepare(request, batchHost, begin);
        if (p instanceof LaunchPreparation.Settled settled) {
            telemetry.launched(settled.outcome(), null);
        }
        return p;
    }

    /**
     * The credential must cover the whole request (CredentialVerifier#verifyLaunch): a request replayed with another
     * environment, directory, output path, limit or run is refused, as is one with another script.
     */
    private LaunchPreparation doPrepare(LaunchJobRequest request, boolean batchHost, long begin) {
        LaunchOrder order = LaunchRequests.order(request);
        Optional<LaunchOutcome.InvalidRequest> problem = order.problem();
        if (problem.isPresent()) {
            return new LaunchPreparation.Settled(problem.get());
        }
        long jobId = order.jobId();
        LaunchCredential cred;
        try {
            cred = verifier.verifyLaunch(request.getCredential(), nodeName, request);
        } catch (CredentialException e) {
            LOG.warn("job {}: launch refused: {}", jobId, e.getMessage());
            return new LaunchPreparation.Settled(new LaunchOutcome.Refused(e.getMessage()));
        }
        RunningJob job = new RunningJob(jobId, order.restartCount());
        synchronized (this) {
            Optional<String> older = endEarlierRun(jobId, order.restartCount());
            if (older.isPresent()) {
                LOG.warn("job {}: launch refused: {}", jobId, older.get());
                return new LaunchPreparation.Settled(new LaunchOutcome.Refused(older.get()));
            }
            Instant issuedAt = Instant.ofEpochSecond(cred.getIssuedAt().getSeconds(), cred.getIssuedAt().getNanos());
            Optional<String> refusal = jobs.containsKey(jobId)
                    ? Optional.of("job " + jobId + " was already launched on this node and still runs")
                    : guard.refusal(jobId, issuedAt);
            if (refusal.isPresent()) {
                LOG.warn("job {}: launch refused: {}", jobId, refusal.get());
                return new LaunchPreparation.Settled(new LaunchOutcome.Refused(refusal.get()));
            }
            guard.launched(jobId, issuedAt, Instant.ofEpochSecond(cred.getExpiresAt().getSeconds(), cred.getExpiresAt().getNanos()));
            jobs.put(jobId, job);
            // an order that came before the launch was decided after it: it wins over the launch's own
            job.startSuspended = early.takeFor(jobId, order.restartCount()).orElse(order.startSuspended());
        }
        JobUser user = new JobUser(cred.getUser(), Integer.toUnsignedLong(cred.getUid()), Integer.toUnsignedLong(cred.getGid()));
        BatchLauncher.Attempt attempt;
        Containment.JobGroup group = null;
        try {
            group = containment.create(jobId, order.memoryMb());
            attempt = launcher.prepare(batchHost ? order : AllocationHolder.of(order), user, cred.getNodesList(), group);
        } catch (java.io.IOException e) {
            attempt = new BatchLauncher.Attempt.NotStarted(new LaunchOutcome.Failed("cannot create the job's cgroup: " + e.getMessage()));
        } catch (RuntimeException e) {
            attempt = new BatchLauncher.Attempt.NotStarted(new LaunchOutcome.Failed("cannot start the job: " + e));
        }
        long execNanos = System.nanoTime();
        if (attempt instanceof BatchLauncher.Attempt.NotStarted notStarted) {
            return new LaunchPreparation.Settled(notStarted(job, group, notStarted.outcome()));
        }
        return new PreparedLaunch(this, launcher, telemetry, order, job, user, group,
                ((BatchLauncher.Attempt.Started) attempt).process(), execNanos - begin);
    }

    /**
     * A launch of run {@code run} of a job while an earlier run of it is still here (being killed, or left running when
     * the controller moved on: a requeue after its node was lost): that run is the controller's no longer, so it is
     * ended first, at once (SIGKILL to what is left of it, no kill wait), its exit reported as its own, and the launch
     * waits, lock released, until it is out of the table (its cgroup is the job's), as slurmd waits for the old step's
     * processes before a new credential's launch. Empty: nothing of an earlier run is here (any more); else why the
     * launch must be refused: the earlier run outlived {@link #EARLIER_RUN_WAIT}. Caller holds the lock.
     */
    private Optional<String> endEarlierRun(long jobId, int run) {
        RunningJob earlier = jobs.get(jobId);
        if (earlier == null || earlier.run == RunningJob.ANY_RUN || earlier.run >= run) {
            return Optional.empty();
        }
        LOG.info("job {}: run {} launched while run {} is still here ({}); killing what is left of run {} first", jobId, run,
                earlier.run, earlier.state, earlier.run);
        if (earlier.terminateReason == null) {
            earlier.terminateReason = "replaced by run " + run;
        }
        switch (earlier.state) {
            case STARTING -> earlier.pendingKillWait = Duration.ZERO;
            case RUNNING, SUSPENDED -> {
                beginTermination(earlier, Duration.ZERO);
                table.save(earlier.entry());
            }
            case TERMINATING, ENDING -> {
                if (earlier.killTimer != null) {
                    earlier.killTimer.cancel(false);
                }
                deliver(earlier, Signals.SIGKILL);
            }
        }
        long deadline = System.nanoTime() + EARLIER_RUN_WAIT.toNanos();
        while (jobs.get(jobId) == earlier) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Optional.of("run " + earlier.run + " of job " + jobId + " is still being killed on this node after "
                        + EARLIER_RUN_WAIT.toSeconds() + " s");
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while run " + earlier.run + " of job " + jobId + " was being killed");
            }
        }
        return Optional.empty();
    }

    /** Takes a job that did not start out of the table; its outcome. */
    synchronized LaunchOutcome notStarted(RunningJob job, Containment.JobGroup group, LaunchOutcome outcome) {
        jobs.remove(job.jobId, job);
        notifyAll(); // a launch of the job's next run may wait for this one to be gone
        guard.launchAbandoned(job.jobId);
        if (group != null) {
            group.release();
        }
        LOG.warn("job {}: not started: {}", job.jobId, outcome.summary());
        return outcome;
    }

    /**
     * Lets a prepared job's script run and enters it into the table as running — or, when the controller suspended it
     * before this moment (its SuspendJob came before or during the launch), stops it first and enters it suspended, so
     * that nothing of it runs: the status-keeping shell reads "go" only once thawed. Under this lock, so a suspend or
     * resume arriving meanwhile waits and then finds the job in its state.
     */
    synchronized LaunchOutcome release(LaunchOrder order, RunningJob job, JobUser user, Containment.JobGroup group, Process process) {
        if (job.startSuspended) {
            group.started(process.pid());
            BatchLauncher.awaitInPlace(process, group);
            group.freeze();
            job.settled = true;
        }
        return switch (launcher.release(job.jobId, process)) {
            case BatchLauncher.Attempt.NotStarted n -> notStarted(job, group, n.outcome());
            case BatchLauncher.Attempt.Started s -> register(order, job, user, group, s.process());
        };
    }

    /** Enters a job whose script now runs (or waits, stopped, to run) into the table and its file, and follows its leader. */
    private LaunchOutcome register(LaunchOrder order, RunningJob job, JobUser user, Containment.JobGroup group, Process process) {
        long jobId = job.jobId;
        group.started(process.pid());
        job.process = process;
        job.pid = process.pid();
        job.pidStartTicks = ProcFs.stat(job.pid).map(ProcStat::startTicks).orElse(0L);
        job.partition = order.partition();
        job.user = user;
        job.group = group;
        job.startedAt = clock.instant();
        job.state = job.startSuspended ? AgentJobState.SUSPENDED : AgentJobState.RUNNING;
        table.save(job.entry());
        LOG.info("job {}: started batch script as pid {} in {}{}", jobId, job.pid, group.id(),
                job.startSuspended ? ", suspended (the controller suspended it before it ran)" : "");
        Thread.ofPlatform().name("job-" + jobId + "-leader").daemon(true).stackSize(LEADER_WAITER_STACK)
                .start(() -> awaitLeader(job));
        if (job.pendingKillWait != null) {
            beginTermination(job, job.pendingKillWait);
        }
        return new LaunchOutcome.Started(process.pid());
    }

    /** SignalJob for whatever run of the job is here (an older controller names none). */
    public synchronized ControlOutcome signal(long jobId, int signal) {
        return signal(jobId, JobRun.UNKNOWN, signal);
    }

    /**
     * SignalJob for run {@code run} ({@link JobRun#UNKNOWN}: whatever run is here): delivers one signal (1..64) to every
     * process of the job. A signal for another run of the job than the one here is ignored.
     */
    public synchronized ControlOutcome signal(long jobId, int run, int signal) {
        if (!Signals.isValid(signal)) {
            return new ControlOutcome.InvalidRequest("signal", "signal must be 1.." + Signals.MAX + ", got " + signal);
        }
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return new ControlOutcome.NoSuchJob(jobId);
        }
        if (run != JobRun.UNKNOWN && !job.isRun(run)) {
            LOG.info("job {}: ignoring signal {} for run {}; run {} is here", jobId, signal, run, job.run);
            return ControlOutcome.DONE;
        }
        if (!job.hasProcess()) {
            return new ControlOutcome.WrongState("job " + jobId + " is still starting");
        }
        if (job.state == AgentJobState.ENDING) {
            return ControlOutcome.DONE; // its script has exited and what is left is being killed anyway
        }
        deliver(job, signal);
        return ControlOutcome.DONE;
    }

    /**
     * SuspendJob for run {@code run}: stops every process in place. Suspending a suspended job does nothing. A job still
     * starting here starts stopped; one not launched here yet (the order overtook its launch, or the launch is still
     * being forwarded) starts stopped when it comes ({@link EarlyControls}). An order for an earlier run is ignored.
     */
    public synchronized ControlOutcome suspend(long jobId, int run) {
        RunningJob job = jobs.get(jobId);
        if (job == null || (!job.isRun(run) && run > job.run)) {
            early.record(jobId, run, true);
            LOG.info("job {}: suspend before its run {} was launched here; it will start suspended", jobId, run);
            return ControlOutcome.DONE;
        }
        if (!job.isRun(run)) {
            return ControlOutcome.DONE; // meant for an earlier run of the job
        }
        return switch (job.state) {
            case STARTING -> {
                job.startSuspended = true;
                LOG.info("job {}: suspended while starting; it will start suspended", jobId);
                yield ControlOutcome.DONE;
            }
            case RUNNING -> {
                turn(job, AgentJobState.SUSPENDED);
                yield ControlOutcome.DONE;
            }
            case SUSPENDED -> ControlOutcome.DONE;
            case TERMINATING, ENDING -> new ControlOutcome.WrongState("job " + jobId + " is being terminated");
        };
    }

    /**
     * ResumeJob for run {@code run}: continues a suspended job. Resuming a job that is not suspended does nothing. It
     * cancels an earlier suspend of a job still starting, or not launched here yet.
     */
    public synchronized ControlOutcome resume(long jobId, int run) {
        RunningJob job = jobs.get(jobId);
        if (job == null || (!job.isRun(run) && run > job.run)) {
            early.record(jobId, run, false);
            return ControlOutcome.DONE;
        }
        if (!job.isRun(run)) {
            return ControlOutcome.DONE;
        }
        if (job.state == AgentJobState.STARTING) {
            job.startSuspended = false;
            return ControlOutcome.DONE;
        }
        if (job.state == AgentJobState.SUSPENDED) {
            turn(job, AgentJobState.RUNNING);
        }
        return ControlOutcome.DONE;
    }

    /**
     * Suspends ({@code to} SUSPENDED: freezes the group) or resumes ({@code to} RUNNING: thaws it) a started job, once
     * its launch has settled, and records the new state in the table. Caller holds the lock.
     */
    private void turn(RunningJob job, AgentJobState to) {
        job.settle();
        if (to == AgentJobState.SUSPENDED) {
            job.group.freeze();
        } else {
            job.group.thaw();
        }
        job.state = to;
        table.save(job.entry());
        LOG.info("job {}: {}", job.jobId, to == AgentJobState.SUSPENDED ? "suspended" : "resumed");
    }

    /**
     * TerminateJob: the kill sequence (continue, SIGTERM, SIGKILL after {@code killWait}, wait for the group to
     * empty, report). Idempotent; refuses every later launch of the job, also when it never ran here.
     *
     * @return whether the job was running here
     */
    public synchronized boolean terminate(long jobId, Duration killWait, String reason) {
        return terminate(jobId, JobRun.UNKNOWN, killWait, reason);
    }

    /**
     * TerminateJob for run {@code run} ({@link JobRun#UNKNOWN}: whatever run is here): as {@link #terminate(long,
     * Duration, String)}; a terminate for another run of the job than the one here leaves that one alone and answers
     * that the job (the run named) was not running here. A terminate naming the run that is here revokes nothing:
     * that run's launch is already remembered (a replay of its credential stays refused), and the job's next run,
     * whose credential the controller may have issued before this terminate arrived (a node's registration ends the
     * run it left behind while the requeued job is placed there again), must not be refused for it.
     */
    public synchronized boolean terminate(long jobId, int run, Duration killWait, String reason) {
        RunningJob here = jobs.get(jobId);
        if (run != JobRun.UNKNOWN && here != null && !here.isRun(run)) {
            LOG.info("job {}: terminate ({}) for run {} ignored; run {} is here", jobId, reason, run, here.run);
            return false;
        }
        if (run == JobRun.UNKNOWN || here == null) {
            guard.revoked(jobId);
        }
        early.forget(jobId);
        RunningJob job = here;
        if (job == null) {
            LOG.info("job {}: terminate ({}) for a job not running here; later launches refused", jobId, reason);
            return false;
        }
        if (job.terminateReason != null) {
            return true;
        }
        job.terminateReason = reason.isEmpty() ? "terminated" : reason;
        switch (job.state) {
            case STARTING -> job.pendingKillWait = killWait;
            case RUNNING, SUSPENDED -> {
                beginTermination(job, killWait);
                table.save(job.entry());
            }
            case TERMINATING, ENDING -> { }
        }
        return true;
    }

    /** Ids of the jobs this node runs (also those being started or killed), in increasing order. */
    public synchronized List<Long> runningJobIds() {
        return jobs.keySet().stream().sorted().toList();
    }

    /** The jobs this node runs (also those being started or killed) with their runs, in job id order. */
    public synchronized List<JobRun> runningJobs() {
        return jobs.values().stream().sorted(java.util.Comparator.comparingLong(j -> j.jobId))
                .map(j -> new JobRun(j.jobId, j.run == RunningJob.ANY_RUN ? JobRun.UNKNOWN : j.run)).toList();
    }

    /**
     * What a job step's tasks need from the job they run in: its user and container, and how they become processes
     * of the job (so that its signals, suspension, kill sequence and end wait for its processes cover them).
     */
    public record StepHost(JobUser user, java.util.List<java.nio.file.Path> joinFiles, StepRunner.Membership membership) {}

    /** The job's user and container when it runs here (not starting, suspended or ending); empty otherwise. */
    public synchronized Optional<StepHost> stepHost(long jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null || job.state != AgentJobState.RUNNING || job.group == null || job.user == null) {
            return Optional.empty();
        }
        return Optional.of(new StepHost(job.user, job.group.joinFiles(), new StepRunner.Membership() {
            @Override
            public boolean started(List<Long> pids) {
                return stepTasksStarted(job, pids);
            }

            @Override
            public void exited(long pid) {
                job.group.removeStepTask(pid);
            }
        }));
    }

    /**
     * Enters step tasks of {@code job}, each leading its own process group, into its container; a task of a job
     * suspended meanwhile is stopped with it. Refused once the job is being terminated or has left this node.
     */
    private synchronized boolean stepTasksStarted(RunningJob job, List<Long> pids) {
        if (jobs.get(job.jobId) != job || (job.state != AgentJobState.RUNNING && job.state != AgentJobState.SUSPENDED)) {
            return false;
        }
        pids.forEach(job.group::addStepTask);
        if (job.state == AgentJobState.SUSPENDED) {
            job.group.freeze();
        }
        return true;
    }

    /** The batch script's pid of a job with a process. */
    public synchronized Optional<Long> pid(long jobId) {
        RunningJob job = jobs.get(jobId);
        return job == null || job.pid == 0 ? Optional.empty() : Optional.of(job.pid);
    }

    /** What each running job used so far, as of the latest sample, in job id order. */
    public synchronized List<UsageSample> usage() {
        return jobs.values().stream().filter(RunningJob::hasProcess).sorted(java.util.Comparator.comparingLong(j -> j.jobId))
                .map(j -> new UsageSample(j.jobId, j.partition, j.maxCpuSeconds, j.maxRssKb, j.rssKb,
                        j.run == RunningJob.ANY_RUN ? JobRun.UNKNOWN : j.run)).toList();
    }

    /** The largest CPU time and resident memory sampled so far for a running job. */
    public synchronized Optional<Containment.GroupUsage> usage(long jobId) {
        RunningJob job = jobs.get(jobId);
        return job == null ? Optional.empty() : Optional.of(new Containment.GroupUsage(job.maxCpuSeconds, job.maxRssKb));
    }

    /** How many jobs are in each state. */
    public synchronized Map<AgentJobState, Integer> countByState() {
        Map<AgentJobState, Integer> counts = new EnumMap<>(AgentJobState.class);
        for (AgentJobState s : AgentJobState.values()) {
            counts.put(s, 0);
        }
        jobs.values().forEach(j -> counts.merge(j.state, 1, Integer::sum));
        return counts;
    }

    public String containmentMode() {
        return containment.mode();
    }

    /** Stops background sampling. Running jobs keep running (in their own sessions and cgroups), to be re-adopted. */
    @Override
    public synchronized void close() {
        sampling.cancel(false);
        if (jobs.isEmpty()) {
            containment.removeScope(); // nothing to re-adopt: leave no empty cgroups behind
        }
    }

    private void beginTermination(RunningJob job, Duration killWait) {
        LOG.info("job {}: terminating ({}), SIGKILL in {} s", job.jobId, job.terminateReason, killWait.toSeconds());
        job.state = AgentJobState.TERMINATING;
        job.settle();
        job.group.thaw();
        if (job.pid != 0) {
            BatchLauncher.awaitScriptStarted(job.pid);
        }
        deliver(job, Signals.SIGTERM);
        job.killTimer = tasks.after(() -> killAfterWait(job), killWait);
    }

    private synchronized void killAfterWait(RunningJob job) {
        if (jobs.get(job.jobId) == job && job.state == AgentJobState.TERMINATING) {
            LOG.info("job {}: kill wait over, SIGKILL", job.jobId);
            deliver(job, Signals.SIGKILL);
        }
    }

    /**
     * Runs on the job's own waiter thread. Not Process.onExit(): that completes on the ForkJoin common pool, and
     * anything else blocking that pool would delay every job's end.
     */
    private void awaitLeader(RunningJob job) {
        while (true) {
            try {
                job.process.waitFor();
                break;
            } catch (InterruptedException e) {
                // nobody interrupts a waiter on purpose; keep waiting, the process still has to be reaped
            }
        }
        tasks.now(() -> leaderExited(job, ExitStatus.fromExitValue(job.process.exitValue())));
    }

    /**
     * Re-attaches to the jobs an earlier run of this agent left running, from its job table, and removes the
     * empty cgroups of jobs it does not know. A re-adopted leader is not this process's child: its end is seen by
     * polling /proc, and its exit status read from the file its status-keeping shell writes. Call once, before
     * serving and registering (the registration lists the re-adopted jobs).
     *
     * @return the ids of the jobs re-adopted
     */
    public List<Long> adoptFromTable() {
        List<RunningJob> adopted = new ArrayList<>();
        synchronized (this) {
            for (JobTableStore.Entry e : table.load()) {
                RunningJob job = RunningJob.adopted(e, containment.adopt(e.jobId(), e.group(), e.pid()));
                jobs.put(job.jobId, job);
                guard.launched(job.jobId, clock.instant(), clock.instant()); // its credential is unknown: refuse any issued so far
                if (!e.terminateReason().isEmpty()) {
                    job.terminateReason = e.terminateReason();
                    beginTermination(job, Duration.ZERO); // the kill wait ran out while the agent was away, or nearly
                }
                adopted.add(job);
                LOG.info("job {}: re-adopted (pid {}, {}{})", job.jobId, job.pid, job.group.id(),
                        job.terminateReason != null ? ", being terminated" : "");
            }
        }
        containment.sweep(adopted.stream().map(j -> j.jobId).collect(java.util.stream.Collectors.toSet()));
        adopted.forEach(this::pollAdoptedLeader);
        return adopted.stream().map(j -> j.jobId).toList();
    }

    private void pollAdoptedLeader(RunningJob job) {
        if (ProcFs.isAlive(job.pid, job.pidStartTicks)) {
            tasks.after(() -> pollAdoptedLeader(job), timing.reapPoll());
            return;
        }
        leaderExited(job, launcher.exitStatusOf(job.jobId).orElse(new ExitStatus(0, Signals.SIGKILL)));
    }

    private void leaderExited(RunningJob job, ExitStatus exitStatus) {
        boolean leftovers = !job.group.isEmpty();
        synchronized (this) {
            job.status = exitStatus;
            job.state = AgentJobState.ENDING;
            if (job.killTimer != null) {
                job.killTimer.cancel(false);
            }
            if (leftovers) {
                deliver(job, Signals.SIGKILL);
            }
        }
        LOG.info("job {}: batch script exited ({}:{}){}", job.jobId, job.status.code(), job.status.signal(),
                leftovers ? ", killing what is left of its processes" : "");
        awaitEmptyGroup(job, clock.instant());
    }

    /** Polls until no process of the job is left, repeating SIGKILL now and then (a process may be in D state). */
    private void awaitEmptyGroup(RunningJob job, Instant lastKill) {
        if (job.group.isEmpty()) {
            finish(job);
            return;
        }
        Instant now = clock.instant();
        Instant next = lastKill;
        if (!now.isBefore(lastKill.plus(timing.killRepeat()))) {
            synchronized (this) {
                deliver(job, Signals.SIGKILL);
            }
            next = now;
        }
        Instant killedAt = next;
        tasks.after(() -> awaitEmptyGroup(job, killedAt), timing.reapPoll());
    }

    private void finish(RunningJob job) {
        completion.complete(job, () -> {
            synchronized (this) {
                jobs.remove(job.jobId, job);
                notifyAll(); // a launch of the job's next run may wait for this one to be gone
            }
        });
    }

    private void deliver(RunningJob job, int signal) {
        job.settle();
        job.group.signal(signal);
        telemetry.signalled(signal);
    }

    private void sampleUsage() {
        List<RunningJob> live = new ArrayList<>();
        synchronized (this) {
            jobs.values().stream().filter(RunningJob::hasProcess).forEach(live::add);
        }
        UsageSampler.sample(containment, live, this);
        telemetry.sampled(usage());
    }

}
