package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.UpdateJobRequest;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.control.JobEdits;
import dev.gantry.scheduler.control.JobReshape;
import dev.gantry.scheduler.lifecycle.Decision;
import dev.gantry.scheduler.lifecycle.Requeue;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.submit.SubmissionPolicy;
import dev.gantry.scheduler.submit.SubmitTerms;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;


/**
 * scontrol's job controls on the controller thread: hold, release, requeue, update and top. Each id is answered on
 * its own (a refused id does not stop the others); every change is durable before the answer.
 */
public final class JobCommands {

    private final ClusterState state;
    private final JobIndex index;
    private final Submissions submissions;
    private final QosTable qos;
    private final JobDependencies dependencies;
    private final JobLauncher launcher;
    private final LifecycleApplier applier;
    private final InstantSource clock;
    private final Executor onController;
    private final Runnable trigger;

    JobCommands(ClusterState state, JobIndex index, Submissions submissions, QosTable qos, JobDependencies dependencies,
            JobLauncher launcher, LifecycleApplier applier, InstantSource clock, Executor onController, Runnable trigger) {
        this.state = state;
        this.index = index;
        this.submissions = submissions;
        this.qos = qos;
        this.dependencies = dependencies;
        this.launcher = launcher;
        this.applier = applier;
        this.clock = clock;
        this.onController = onController;
        this.trigger = trigger;
    }

    public CompletableFuture<List<JobResult>> hold(List<Long> ids, String user, boolean userHold) {
        return hold(ids, named(user), userHold);
    }

    /** scontrol hold/uhold as {@code who}; a change to another user's job is audited. */
    public CompletableFuture<List<JobResult>> hold(List<Long> ids, Requester who, boolean userHold) {
        return each(ids, who, "held", (j, caller) -> JobEdits.hold(j, caller, userHold));
    }

    public CompletableFuture<List<JobResult>> release(List<Long> ids, String user) {
        return release(ids, named(user));
    }

    public CompletableFuture<List<JobResult>> release(List<Long> ids, Requester who) {
        return each(ids, who, "released", JobEdits::release);
    }

    /**
     * scontrol requeue: a running or suspended job is killed and waits again once its processes are gone; a finished
     * one goes back to the queue at once. Same id, one more restart. {@code hold}: requeuehold.
     */
    public CompletableFuture<List<JobResult>> requeue(List<Long> ids, String user, boolean hold) {
        return requeue(ids, named(user), hold);
    }

    public CompletableFuture<List<JobResult>> requeue(List<Long> ids, Requester who, boolean hold) {
        return each(ids, who, hold ? "requeued and held" : "requeued", () -> caller(who),
                (j, caller) -> Requeue.request(j, caller, hold, clock.instant()),
                (before, after) -> applier.apply(Requeue.of(after)));
    }

    /**
     * scancel --signal: delivers {@code signal} (1..64) to every process of each running or suspended job, on every
     * node of it; nothing about the job changes here (a signal that ends it ends it through its exit report). Users
     * signal their own jobs, operators and administrators any.
     */
    public CompletableFuture<List<JobResult>> signal(List<Long> ids, String user, int signal) {
        return signal(ids, named(user), signal);
    }

    public CompletableFuture<List<JobResult>> signal(List<Long> ids, Requester who, int signal) {
        return each(ids, who, "sent signal " + signal + " to", () -> caller(who), (j, caller) -> {
            if (!caller.admin() && !j.user().equals(caller.user())) {
                return new JobEdits.Refused(JobEdits.DENIED);
            }
            if (j.state() == JobState.PENDING && !j.completing()) {
                return new JobEdits.Refused(JobEdits.PENDING);
            }
            if (!j.state().holdsResources() || j.completing()) {
                return new JobEdits.Refused("Job/step already completing or completed");
            }
            launcher.signal(j, signal);
            return new JobEdits.Changed(j);
        }, (before, after) -> CompletableFuture.completedFuture(null));
    }

    /** scontrol update JobId=… as the request's {@code user} (tests and internal callers). */
    public CompletableFuture<List<JobResult>> update(UpdateJobRequest r) {
        return update(r, named(r.getUser()));
    }

    /** scontrol update JobId=…: each field given is applied in turn; the first refusal answers for the job. */
    public CompletableFuture<List<JobResult>> update(UpdateJobRequest r, Requester who) {
        return each(r.getJobIdsList(), who, "updated", (j, caller) -> {
            List<Function<JobRecord, JobEdits.Edit>> edits = new ArrayList<>();
            if (r.hasTimeLimitSeconds()) {
                long limit = r.getTimeLimitSeconds() == 0 ? -1 : r.getTimeLimitSeconds();
                edits.add(job -> limit < -1
                        ? new JobEdits.Refused("time_limit_seconds: must be positive or -1 (UNLIMITED), got " + limit)
                        : JobEdits.timeLimit(job, caller, limit));
            }
            JobReshape reshape = new JobReshape(r.getPartitionsList(), r.hasMinNodes() ? r.getMinNodes() : null,
                    r.hasMaxNodes() ? r.getMaxNodes() : null, r.hasQos() ? r.getQos() : null,
                    r.hasAccount() ? r.getAccount() : null);
            if (reshape.any()) {
                edits.add(job -> reshape(job, caller, reshape));
            }
            if (r.hasNice()) {
                edits.add(job -> JobEdits.nice(job, caller, r.getNice()));
            }
            if (r.hasDependency()) {
                edits.add(job -> JobEdits.dependency(job, caller, r.getDependency(),
                        text -> dependencies.checkUpdate(text, job.id())));
            }
            if (r.hasPriority()) {
                edits.add(job -> JobEdits.priority(job, caller, r.getPriority()));
            }
            return inTurn(j, edits);
        });
    }

    /** Applies {@code edits} in turn, each to the job the one before made; the first that changes nothing answers. */
    private static JobEdits.Edit inTurn(JobRecord job, List<Function<JobRecord, JobEdits.Edit>> edits) {
        JobRecord cur = job;
        for (Function<JobRecord, JobEdits.Edit> edit : edits) {
            JobEdits.Edit e = edit.apply(cur);
            if (!(e instanceof JobEdits.Changed c)) {
                return e;
            }
            cur = c.job();
        }
        return new JobEdits.Changed(cur);
    }

    /**
     * Partition, node counts, QOS or account of a pending job: its current request with the change applied is re-checked
     * as a submission would be, and kept as its request, so a later update starts from this one.
     */
    private JobEdits.Edit reshape(JobRecord j, JobEdits.Caller caller, JobReshape reshape) {
        if (!caller.owns(j)) {
            return new JobEdits.Refused(JobEdits.DENIED);
        }
        if (j.state() != JobState.PENDING || j.completing()) {
            return new JobEdits.Refused(JobEdits.NOT_PENDING);
        }
        String refusal = reshape.refusal(j);
        if (refusal != null) {
            return new JobEdits.Refused(refusal);
        }
        var changed = reshape.request(j, false);
        var checked = submissions.policy().check(changed);
        if (checked instanceof SubmissionPolicy.Accepted a && !reshape.namesNodes()
                && (a.ask().minNodes() != j.ask().minNodes() || a.ask().maxNodes() != j.ask().maxNodes())) {
            // its counts came from an earlier update its spec does not show (stored before specs kept updates)
            changed = reshape.request(j, true);
            checked = submissions.policy().check(changed);
        }
        final var request = changed;
        return switch (checked) {
            case SubmissionPolicy.Rejected rej -> new JobEdits.Refused(rej.message());
            case SubmissionPolicy.Accepted a -> switch (submissions.terms().resolve(request, qos.all(), a.partitions(),
                    q -> 0, 1)) {
                case SubmitTerms.Refused ref -> new JobEdits.Refused(ref.message());
                case SubmitTerms.Resolved res -> new JobEdits.Changed(j.toBuilder().request(request).partitions(a.partitions())
                        .partition(a.partitions().get(0)).ask(a.ask())
                        .controls(j.controls().withAccount(res.controls().account()).withQos(res.controls().qos()))
                        .forecast(null).build());
            };
        };
    }

    public CompletableFuture<List<JobResult>> top(List<Long> ids, String user) {
        return top(ids, named(user));
    }

    /** scontrol top: the caller's own pending jobs (operators: anyone's). */
    public CompletableFuture<List<JobResult>> top(List<Long> ids, Requester who) {
        return CompletableFuture.supplyAsync(() -> {
            JobEdits.Caller caller = caller(who);
            List<JobResult> out = new ArrayList<>();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (long id : ids) {
                JobRecord j = state.job(id);
                if (j == null) {
                    out.add(result(id, JobEdits.INVALID_ID));
                } else if (!caller.owns(j)) {
                    out.add(result(id, JobEdits.DENIED));
                } else if (j.state() != JobState.PENDING || j.completing()) {
                    out.add(result(id, JobEdits.NOT_PENDING));
                } else {
                    Audit.onJob(clock.instant(), who, "moved to the top", j);
                    for (JobRecord changed : JobEdits.top(j, state.jobs())) {
                        writes.add(applier.apply(Decision.kept(changed)));
                    }
                    out.add(result(id, null));
                }
            }
            trigger.run();
            return new Batch(out, writes);
        }, onController).thenCompose(Batch::durable);
    }

    private static JobEdits.Caller caller(Requester who) {
        return new JobEdits.Caller(who.user(), who.privileged());
    }

    /** A caller known by name only (tests, internal callers): its role from the config, uid unknown. */
    private Requester named(String user) {
        return Requester.of(state.config(), user, -1);
    }

    private record Batch(List<JobResult> results, List<CompletableFuture<Void>> writes) {
        CompletableFuture<List<JobResult>> durable() {
            return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenApply(v -> results);
        }
    }

    /** What a command does to one job. */
    interface Action {
        JobEdits.Edit apply(JobRecord job, JobEdits.Caller caller);
    }

    /** Keeps a changed job (state, events, agents) and returns its durable write. Controller thread. */
    interface Commit {
        CompletableFuture<Void> store(JobRecord before, JobRecord after);
    }

    /** Applies an action to each job (array ids expand to their tasks), persisting the changed ones. */
    private CompletableFuture<List<JobResult>> each(List<Long> ids, Requester who, String verb, Action action) {
        return each(ids, who, verb, () -> caller(who), action,
                (before, after) -> applier.apply(Decision.kept(after)));
    }

    /**
     * Applies {@code action} to each job on the controller thread (an array id expands to its tasks, and is answered
     * fine when some task took the change), committing the changed ones; answers once every write is durable.
     * {@code check} is asked on the controller thread and may refuse the whole call by throwing. A change to another
     * user's job is audited as {@code verb} ("cancelled", "held", …).
     */
    CompletableFuture<List<JobResult>> each(List<Long> ids, Requester who, String verb,
            java.util.function.Supplier<JobEdits.Caller> check, Action action, Commit commit) {
        return CompletableFuture.supplyAsync(() -> {
            JobEdits.Caller caller = check.get();
            List<JobResult> out = new ArrayList<>();
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (long id : ids) {
                List<JobRecord> targets = index.targets(id);
                if (targets.isEmpty()) {
                    out.add(result(id, JobEdits.INVALID_ID));
                    continue;
                }
                String error = null;
                boolean changed = false;
                for (JobRecord j : targets) {
                    switch (action.apply(j, caller)) {
                        case JobEdits.Changed c -> {
                            Audit.onJob(clock.instant(), who, verb, j);
                            writes.add(commit.store(j, c.job()));
                            changed = true;
                        }
                        case JobEdits.Refused ref -> error = error == null ? ref.error() : error;
                    }
                }
                // an array id: fine when some task took the change (its running tasks cannot be held, say)
                out.add(result(id, changed ? null : error));
            }
            trigger.run();
            return new Batch(out, writes);
        }, onController).thenCompose(Batch::durable);
    }

    static JobResult result(long id, String error) {
        JobResult.Builder b = JobResult.newBuilder().setJobId(id).setOk(error == null);
        if (error != null) {
            b.setError(error).setCode(code(error));
        }
        return b.build();
    }

    /**
     * The gRPC status code of a refusal, so API clients tell them apart without parsing Slurm's text: PERMISSION_DENIED
     * for a job the caller may not act on, NOT_FOUND for an id never issued, FAILED_PRECONDITION otherwise.
     */
    public static int code(String error) {
        return switch (error) {
            case JobEdits.DENIED -> io.grpc.Status.Code.PERMISSION_DENIED.value();
            case JobEdits.INVALID_ID -> io.grpc.Status.Code.NOT_FOUND.value();
            default -> io.grpc.Status.Code.FAILED_PRECONDITION.value();
        };
    }

}
