package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.lifecycle.Cancellation;
import dev.gantry.scheduler.lifecycle.JobExit;
import dev.gantry.scheduler.lifecycle.Retention;
import dev.gantry.scheduler.lifecycle.TimeLimits;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The lifecycle's entry points from clients, agents and timers: scancel, the agents' exit reports, time limits and
 * MinJobAge. Each reads the state on the controller thread ({@code onController}), asks the pure transition
 * ({@code dev.gantry.scheduler.lifecycle}) and hands its decision to the {@link LifecycleApplier}; answers complete once
 * the decision is durable.
 */
public final class LifecycleCommands {

    private final ClusterConfig config;
    private final ClusterState state;
    private final CompletingJobs completing;
    private final JobIndex index;
    private final Submissions submissions;
    private final AccountingCommands accounting;
    private final LifecycleApplier applier;
    private final InstantSource clock;
    private final Executor onController;
    private final long overTime;
    private final long minJobAge;

    LifecycleCommands(ClusterConfig config, ClusterState state, CompletingJobs completing, JobIndex index,
            Submissions submissions, AccountingCommands accounting, LifecycleApplier applier, InstantSource clock,
            Executor onController) {
        this.config = config;
        this.state = state;
        this.completing = completing;
        this.index = index;
        this.submissions = submissions;
        this.accounting = accounting;
        this.applier = applier;
        this.clock = clock;
        this.onController = onController;
        this.overTime = config.get(Keys.OVER_TIME_LIMIT);
        this.minJobAge = config.get(Keys.MIN_JOB_AGE);
    }

    /** Cancels jobs as scancel does: pending ones end now, running ones go through the kill sequence. */
    public CompletableFuture<List<Cancellation.Outcome>> cancel(List<Long> ids) {
        return cancel(ids, (Requester) null);
    }

    /**
     * scancel by {@code user}: users cancel their own jobs, operators and administrators any ({@link
     * dev.gantry.scheduler.model.Role}); another user's job answers "Access/permission denied". Null: not checked.
     */
    public CompletableFuture<List<Cancellation.Outcome>> cancel(List<Long> ids, String user) {
        return cancel(ids, user == null ? null : Requester.of(config, user, -1));
    }

    /** scancel as {@code who} (null: not checked; {@link Cancellation}). */
    public CompletableFuture<List<Cancellation.Outcome>> cancel(List<Long> ids, Requester who) {
        return CompletableFuture.supplyAsync(() -> {
            Cancellation.Result r = Cancellation.cancel(ids, index::targets, who, submissions.nextJobId(), clock.instant());
            return applier.apply(r.decision()).thenApply(v -> r.outcomes());
        }, onController).thenCompose(f -> f);
    }

    /**
     * The job's part on a node ended and none of its processes is left there (the epilog ran): on the batch host, the
     * batch script ended; on another node of a multi-node job, its allocation holder. The job ends with the batch
     * host's report and keeps its resources until every node's part is gone ({@link CompletingJobs}). Idempotent: a
     * repeated or stale report is acknowledged without effect; one about another run of the job than its current one
     * (earlier or later) is also counted and logged ({@link JobExit#otherRun}).
     */
    public CompletableFuture<Void> reportExit(ReportJobExitRequest r) {
        return CompletableFuture.supplyAsync(() -> {
            JobRecord j = state.job(r.getJobId());
            int run = r.hasRestartCount() ? r.getRestartCount() : JobExit.UNNAMED_RUN;
            if (j != null && !JobExit.ofCurrentRun(j, run)) {
                return applier.apply(JobExit.otherRun(j, JobExit.ReportKind.EXIT, r.getNode(), run));
            }
            if (j == null || !ClusterState.holds(j)) {
                return applier.flushed(); // a repeat: acknowledged once what an earlier report changed is durable
            }
            Instant now = clock.instant();
            if (!r.getNode().equals(j.batchHost())) {
                return applier.apply(completing.partGone(j.id(), r.getNode(), now));
            }
            if (j.completing() && !completing.awaitsBatchHost(j)) {
                return applier.flushed(); // a repeated report: the job already ended there (acknowledged once durable)
            }
            JobExit.Report report = new JobExit.Report(r.getNode(), r.hasEndedAt() ? JobProtos.instant(r.getEndedAt()) : null,
                    r.getLaunchFailed(), r.getReason(), r.getOutOfMemory(), r.getExitCode(), r.getExitSignal(), run);
            return applier.apply(completing.batchEnded(j, report, accounting.preemptSettings().graceOf(j), now));
        }, onController).thenCompose(f -> f);
    }

    /** Ends running jobs past their time limit (plus OverTimeLimit) through the kill sequence (controller thread). */
    void enforceTimeLimits() {
        applier.apply(TimeLimits.enforce(List.copyOf(state.jobs()), overTime, clock.instant()));
    }

    /** Forgets finished jobs older than MinJobAge (they stay in the database for GetJob and accounting). */
    void purgeOld() {
        applier.apply(Retention.purge(state.jobs(), minJobAge, clock.instant()));
        index.prune();
    }
}
