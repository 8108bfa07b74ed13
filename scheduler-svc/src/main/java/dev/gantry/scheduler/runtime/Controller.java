package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.PendingReason;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JobStore;
import dev.gantry.scheduler.store.StoreException;
import dev.gantry.scheduler.submit.SubmissionPolicy;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    private final ExecutorService loop;
    private final long killWait;
    private final long minJobAge;
    private final long overTime;
    private long nextJobId;
    private volatile Runnable scheduleTrigger = () -> {};

    public Controller(ClusterConfig config, JobStore store, GroupCommitWriter writer, EventLog events,
            JobLauncher launcher, InstantSource clock, SchedulerMetrics metrics) throws StoreException {
        this.state = new ClusterState(config);
        this.policy = new SubmissionPolicy(config);
        this.writer = writer;
        this.events = events;
        this.launcher = launcher;
        this.clock = clock;
        this.metrics = metrics;
        this.killWait = config.get(Keys.KILL_WAIT);
        this.minJobAge = config.get(Keys.MIN_JOB_AGE);
        this.overTime = config.get(Keys.OVER_TIME_LIMIT);
        List<JobRecord> loaded = store.loadCurrent(clock.instant().minusSeconds(minJobAge));
        loaded.forEach(state::put);
        this.nextJobId = Math.max(config.get(Keys.FIRST_JOB_ID), store.maxJobId() + 1);
        this.loop = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("controller").factory());
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

    /** Validates, stores durably, and queues a job; the future yields its id once committed. */
    public CompletableFuture<Long> submit(JobSpec spec) {
        return call(() -> {
            Instant now = clock.instant();
            return switch (policy.check(spec)) {
                case SubmissionPolicy.Rejected r -> throw new RejectedSubmission(r.message());
                case SubmissionPolicy.Accepted a -> {
                    long id = nextJobId++;
                    yield new JobRecord(id, spec, a.name(), spec.getUser(), spec.getUid(), spec.getGid(), a.partitions(),
                            a.ask(), a.timeLimitSeconds(), JobState.PENDING, false, PendingReason.NONE,
                            a.partitions().get(0), List.of(), now, null, null, now, 0, 0, basicPriority(id));
                }
            };
        }).thenCompose(job -> writer.write(job).thenApplyAsync(v -> {
            state.put(job);
            metrics.submitted(job.partition());
            trigger();
            return job.id();
        }, loop));
    }

    /** priority/basic: first in, first out (multifactor priority replaces this). */
    private static long basicPriority(long id) {
        return Math.max(1, 4_294_901_760L - id);
    }

    /** @param error null when cancelled, else Slurm's reason */
    public record CancelOutcome(long jobId, String error) {}

    /** Cancels jobs as scancel does: pending ones end now, running ones go through the kill sequence. */
    public CompletableFuture<List<CancelOutcome>> cancel(List<Long> ids) {
        return call(() -> {
            Instant now = clock.instant();
            List<CancelOutcome> out = new ArrayList<>();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (long id : ids) {
                JobRecord j = state.job(id);
                if (j == null) {
                    out.add(new CancelOutcome(id, id > 0 && id < nextJobId
                            ? "Job/step already completing or completed" : "Invalid job id specified"));
                    continue;
                }
                if (j.state().isFinished() || j.completing()) {
                    out.add(new CancelOutcome(id, "Job/step already completing or completed"));
                    continue;
                }
                JobRecord next;
                if (j.state() == JobState.PENDING) {
                    next = j.toBuilder().state(JobState.CANCELLED, now).endTime(now).reason(PendingReason.NONE).build();
                    metrics.ended(next);
                } else {
                    next = j.toBuilder().state(JobState.CANCELLED, now).completing(true).endTime(now).build();
                    launcher.terminate(next, killWait, "cancelled");
                }
                state.put(next);
                writes.add(writer.write(next));
                out.add(new CancelOutcome(id, null));
            }
            return new CancelBatch(out, writes);
        }).thenCompose(b -> CompletableFuture.allOf(b.writes.toArray(CompletableFuture[]::new)).thenApply(v -> b.outcomes));
    }

    private record CancelBatch(List<CancelOutcome> outcomes, List<CompletableFuture<Void>> writes) {}

    // ---------------------------------------------------------------- starting and ending

    /** Starts a pending job on a checked placement (controller thread). */
    void start(JobRecord job, String partition, List<NodeShare> shares) {
        Instant now = clock.instant();
        JobRecord running = job.toBuilder().state(JobState.RUNNING, now).partition(partition).allocation(shares)
                .startTime(now).reason(PendingReason.NONE).build();
        state.put(running);
        events.publish(ClusterEvent.newBuilder().setAllocationAdded(ClusterProtos.allocation(running)));
        publishNodes(shares);
        writer.write(running);
        metrics.started(running, job.submitTime(), now);
        launcher.launch(running);
    }

    /** Ends a job whose processes are all gone (controller thread); returns the final version, to persist. */
    JobRecord finish(JobRecord j, JobState end, String reason, int exitCode, int exitSignal, Instant endTime) {
        JobRecord done = j.toBuilder().state(end, clock.instant()).completing(false).reason(reason)
                .exit(exitCode, exitSignal).endTime(j.endTime() != null ? j.endTime() : endTime).build();
        state.put(done);
        events.publish(ClusterEvent.newBuilder().setAllocationReleased(j.id()));
        publishNodes(j.allocation());
        metrics.ended(done);
        trigger();
        return done;
    }

    /** Puts a job that could not be launched back in the queue, same id (controller thread). */
    void requeue(JobRecord j, String why) {
        JobRecord pending = j.toBuilder().state(JobState.PENDING, clock.instant()).completing(false).allocation(List.of())
                .startTime(null).reason(PendingReason.NONE).build();
        state.put(pending);
        events.publish(ClusterEvent.newBuilder().setAllocationReleased(j.id()));
        publishNodes(j.allocation());
        writer.write(pending);
        LOG.warn("job {} requeued: {}", j.id(), why);
        trigger();
    }

    void publishNodes(List<NodeShare> shares) {
        for (NodeShare s : shares) {
            events.publish(ClusterEvent.newBuilder().setNodeChanged(ClusterProtos.node(state, state.node(s.node()))));
        }
    }

    /**
     * The batch script ended and none of the job's processes is left. Idempotent: a repeated or stale report is
     * acknowledged without effect. The future completes once the outcome is durable.
     */
    public CompletableFuture<Void> reportExit(ReportJobExitRequest r) {
        return call(() -> {
            JobRecord j = state.job(r.getJobId());
            if (j == null || !ClusterState.holds(j) || !r.getNode().equals(j.batchHost())) {
                return null;
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
            Instant ended = r.hasEndedAt() ? JobProtos.instant(r.getEndedAt()) : clock.instant();
            return finish(j, end, reason, r.getLaunchFailed() ? 1 : r.getExitCode(), r.getExitSignal(), ended);
        }).thenCompose(done -> done == null ? CompletableFuture.completedFuture(null) : writer.write(done));
    }

    /** Ends running jobs past their time limit (plus OverTimeLimit) through the kill sequence. */
    void enforceTimeLimits() {
        Instant now = clock.instant();
        for (JobRecord j : List.copyOf(state.jobs())) {
            if (j.state() != JobState.RUNNING || j.completing() || j.timeLimitSeconds() < 0 || overTime < 0) {
                continue;
            }
            if (!now.isBefore(j.startTime().plusSeconds(j.timeLimitSeconds() + overTime))) {
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
    }

    // ---------------------------------------------------------------- queries

    /** Jobs as the API shows them, filtered (controller thread). */
    public CompletableFuture<List<Job>> listJobs(JobQuery query) {
        return call(() -> state.jobs().stream().filter(query::matches).map(JobProtos::toProto).toList());
    }

    public CompletableFuture<Job> findJob(long id) {
        return call(() -> {
            JobRecord j = state.job(id);
            return j == null ? null : JobProtos.toProto(j);
        });
    }

    public String epoch() {
        return events.epoch();
    }

    @Override
    public void close() {
        loop.shutdown();
        try {
            loop.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
