package dev.gantry.agent.process;

import dev.gantry.agent.job.ControlOutcome;
import dev.gantry.agent.job.ExitStatus;
import dev.gantry.agent.job.JobExit;
import dev.gantry.agent.job.JobState;
import dev.gantry.agent.job.JobUser;
import dev.gantry.agent.job.LaunchGuard;
import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.job.Signals;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.SignedCredential;
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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs of this node (slurmd's job table): launches them after checking their credential, delivers
 * signals, suspends and resumes them, runs the kill sequence, and, once a batch script has exited and no
 * process of its job is left, hands the exit to the {@link ExitSink}.
 *
 * <p>Thread-safety: every public method may be called from any thread; state changes happen under this
 * object's lock, and no caller blocks on a process: waiting (kill wait, group emptying) runs as tasks on the
 * given scheduler, and each batch script has one small waiter thread blocked in waitFor until it exits. A group's id is signalled only while its job is in the table, i.e. before the group was
 * seen empty, so a reused process group id is never signalled.
 */
public final class JobSupervisor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobSupervisor.class);
    /** A waiter thread only blocks in Process.waitFor: a small stack is plenty. */
    private static final long LEADER_WAITER_STACK = 256 * 1024;

    /** How the supervisor paces its background work. */
    public record Timing(Duration reapPoll, Duration killRepeat, Duration usageSample) {
        public static final Timing DEFAULT = new Timing(Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(1));
    }

    private final String nodeName;
    private final CredentialVerifier verifier;
    private final LaunchGuard guard;
    private final BatchLauncher launcher;
    private final Containment containment;
    private final ScheduledExecutorService scheduler;
    private final InstantSource clock;
    private final ExitSink sink;
    private final JobTelemetry telemetry;
    private final Timing timing;
    private final Map<Long, RunningJob> jobs = new HashMap<>();
    private final ScheduledFuture<?> sampling;

    public JobSupervisor(String nodeName, CredentialVerifier verifier, LaunchGuard guard, BatchLauncher launcher,
            Containment containment, ScheduledExecutorService scheduler, InstantSource clock, ExitSink sink,
            JobTelemetry telemetry, Timing timing) {
        this.nodeName = nodeName;
        this.verifier = verifier;
        this.guard = guard;
        this.launcher = launcher;
        this.containment = containment;
        this.scheduler = scheduler;
        this.clock = clock;
        this.sink = sink;
        this.telemetry = telemetry;
        this.timing = timing;
        this.sampling = scheduler.scheduleWithFixedDelay(this::sampleUsage, timing.usageSample().toMillis(),
                timing.usageSample().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** LaunchJob: checks, then starts the batch script; returns once the process exists (or why it does not). */
    public LaunchOutcome launch(LaunchOrder order, SignedCredential credential) {
        long begin = System.nanoTime();
        LaunchOutcome outcome = doLaunch(order, credential);
        telemetry.launched(outcome, outcome instanceof LaunchOutcome.Started ? Duration.ofNanos(System.nanoTime() - begin) : null);
        return outcome;
    }

    private LaunchOutcome doLaunch(LaunchOrder order, SignedCredential credential) {
        Optional<LaunchOutcome.InvalidRequest> problem = order.problem();
        if (problem.isPresent()) {
            return problem.get();
        }
        long jobId = order.jobId();
        LaunchCredential cred;
        try {
            cred = verifier.verify(credential, nodeName, jobId, order.script().getBytes(StandardCharsets.UTF_8));
        } catch (CredentialException e) {
            LOG.warn("job {}: launch refused: {}", jobId, e.getMessage());
            return new LaunchOutcome.Refused(e.getMessage());
        }
        RunningJob job = new RunningJob(jobId);
        synchronized (this) {
            Optional<String> refusal = guard.refusal(jobId);
            if (refusal.isPresent()) {
                LOG.warn("job {}: launch refused: {}", jobId, refusal.get());
                return new LaunchOutcome.Refused(refusal.get());
            }
            guard.launched(jobId, Instant.ofEpochSecond(cred.getExpiresAt().getSeconds(), cred.getExpiresAt().getNanos()));
            jobs.put(jobId, job);
        }
        JobUser user = new JobUser(cred.getUser(), Integer.toUnsignedLong(cred.getUid()), Integer.toUnsignedLong(cred.getGid()));
        BatchLauncher.Attempt attempt;
        try {
            attempt = launcher.start(order, user, cred.getNodesList());
        } catch (RuntimeException e) {
            attempt = new BatchLauncher.Attempt.NotStarted(new LaunchOutcome.Failed("cannot start the job: " + e));
        }
        synchronized (this) {
            if (attempt instanceof BatchLauncher.Attempt.NotStarted notStarted) {
                jobs.remove(jobId);
                guard.launchAbandoned(jobId);
                LOG.warn("job {}: not started: {}", jobId, notStarted.outcome().summary());
                return notStarted.outcome();
            }
            BatchLauncher.Attempt.Started started = (BatchLauncher.Attempt.Started) attempt;
            job.process = started.process();
            job.group = containment.contain(jobId, job.process.pid());
            job.startedAt = clock.instant();
            job.state = JobState.RUNNING;
            LOG.info("job {}: started batch script as pid {}", jobId, job.process.pid());
            Thread.ofPlatform().name("job-" + jobId + "-leader").daemon(true).stackSize(LEADER_WAITER_STACK)
                    .start(() -> awaitLeader(job));
            if (job.pendingKillWait != null) {
                beginTermination(job, job.pendingKillWait);
            }
            return new LaunchOutcome.Started(job.process.pid());
        }
    }

    /** SignalJob: delivers one signal (1..64) to every process of the job. */
    public synchronized ControlOutcome signal(long jobId, int signal) {
        if (!Signals.isValid(signal)) {
            return new ControlOutcome.InvalidRequest("signal", "signal must be 1.." + Signals.MAX + ", got " + signal);
        }
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return new ControlOutcome.NoSuchJob(jobId);
        }
        if (!job.hasProcess()) {
            return new ControlOutcome.WrongState("job " + jobId + " is still starting");
        }
        deliver(job, signal);
        return ControlOutcome.DONE;
    }

    /** SuspendJob: stops every process in place. Suspending a suspended job does nothing. */
    public synchronized ControlOutcome suspend(long jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return new ControlOutcome.NoSuchJob(jobId);
        }
        return switch (job.state) {
            case RUNNING -> {
                job.group.freeze();
                job.state = JobState.SUSPENDED;
                LOG.info("job {}: suspended", jobId);
                yield ControlOutcome.DONE;
            }
            case SUSPENDED -> ControlOutcome.DONE;
            case STARTING -> new ControlOutcome.WrongState("job " + jobId + " is still starting");
            case TERMINATING, ENDING -> new ControlOutcome.WrongState("job " + jobId + " is being terminated");
        };
    }

    /** ResumeJob: continues a suspended job. Resuming a job that is not suspended does nothing. */
    public synchronized ControlOutcome resume(long jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return new ControlOutcome.NoSuchJob(jobId);
        }
        if (job.state == JobState.STARTING) {
            return new ControlOutcome.WrongState("job " + jobId + " is still starting");
        }
        if (job.state == JobState.SUSPENDED) {
            job.group.thaw();
            job.state = JobState.RUNNING;
            LOG.info("job {}: resumed", jobId);
        }
        return ControlOutcome.DONE;
    }

    /**
     * TerminateJob: the kill sequence (continue, SIGTERM, SIGKILL after {@code killWait}, wait for the group to
     * empty, report). Idempotent; refuses every later launch of the job, also when it never ran here.
     *
     * @return whether the job was running here
     */
    public synchronized boolean terminate(long jobId, Duration killWait, String reason) {
        guard.revoked(jobId);
        RunningJob job = jobs.get(jobId);
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
            case RUNNING, SUSPENDED -> beginTermination(job, killWait);
            case TERMINATING, ENDING -> { }
        }
        return true;
    }

    /** Ids of the jobs this node runs (also those being started or killed), in increasing order. */
    public synchronized List<Long> runningJobIds() {
        return jobs.keySet().stream().sorted().toList();
    }

    /** The batch script's pid of a job with a process. */
    public synchronized Optional<Long> pid(long jobId) {
        RunningJob job = jobs.get(jobId);
        return job == null || job.process == null ? Optional.empty() : Optional.of(job.process.pid());
    }

    /** The largest CPU time and resident memory sampled so far for a running job. */
    public synchronized Optional<Containment.GroupUsage> usage(long jobId) {
        RunningJob job = jobs.get(jobId);
        return job == null ? Optional.empty() : Optional.of(new Containment.GroupUsage(job.maxCpuSeconds, job.maxRssKb));
    }

    /** How many jobs are in each state. */
    public synchronized Map<JobState, Integer> countByState() {
        Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
        for (JobState s : JobState.values()) {
            counts.put(s, 0);
        }
        jobs.values().forEach(j -> counts.merge(j.state, 1, Integer::sum));
        return counts;
    }

    public String containmentMode() {
        return containment.mode();
    }

    /** Stops background sampling. Running jobs keep running (they are in their own sessions). */
    @Override
    public synchronized void close() {
        sampling.cancel(false);
    }

    private void beginTermination(RunningJob job, Duration killWait) {
        LOG.info("job {}: terminating ({}), SIGKILL in {} s", job.jobId, job.terminateReason, killWait.toSeconds());
        job.state = JobState.TERMINATING;
        job.group.thaw();
        deliver(job, Signals.SIGTERM);
        job.killTimer = schedule(() -> killAfterWait(job), killWait);
    }

    private synchronized void killAfterWait(RunningJob job) {
        if (jobs.get(job.jobId) == job && job.state == JobState.TERMINATING) {
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
        onScheduler(() -> leaderExited(job));
    }

    private void leaderExited(RunningJob job) {
        int exitValue = job.process.exitValue();
        boolean leftovers = !job.group.isEmpty();
        synchronized (this) {
            job.status = ExitStatus.fromExitValue(exitValue);
            job.state = JobState.ENDING;
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
        schedule(() -> awaitEmptyGroup(job, killedAt), timing.reapPoll());
    }

    private void finish(RunningJob job) {
        JobExit exit;
        synchronized (this) {
            jobs.remove(job.jobId);
            exit = new JobExit(job.jobId, job.status, job.terminateReason == null ? "" : job.terminateReason,
                    job.maxCpuSeconds, job.maxRssKb, job.startedAt, clock.instant());
        }
        launcher.cleanUp(job.jobId);
        LOG.info("job {}: ended, no process left; reporting exit {}:{}", job.jobId, exit.status().code(), exit.status().signal());
        sink.jobEnded(exit);
    }

    private void deliver(RunningJob job, int signal) {
        job.group.signal(signal);
        telemetry.signalled(signal);
    }

    private void sampleUsage() {
        List<RunningJob> live = new ArrayList<>();
        synchronized (this) {
            jobs.values().stream().filter(RunningJob::hasProcess).forEach(live::add);
        }
        if (live.isEmpty()) {
            return;
        }
        try {
            Map<Containment.JobGroup, Containment.GroupUsage> usage = containment.sample(live.stream().map(j -> j.group).toList());
            synchronized (this) {
                for (RunningJob job : live) {
                    Containment.GroupUsage u = usage.getOrDefault(job.group, Containment.GroupUsage.NONE);
                    job.maxCpuSeconds = Math.max(job.maxCpuSeconds, u.cpuSeconds());
                    job.maxRssKb = Math.max(job.maxRssKb, u.rssKb());
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("usage sample failed: {}", e.getMessage());
        }
    }

    private void onScheduler(Runnable task) {
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("agent stopping; dropped a job task");
        }
    }

    private ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        try {
            return scheduler.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("agent stopping; dropped a job task");
            return null;
        }
    }
}
