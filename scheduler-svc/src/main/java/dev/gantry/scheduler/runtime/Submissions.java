package dev.gantry.scheduler.runtime;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.control.ArraySpec;
import dev.gantry.scheduler.control.DependencyPolicy;
import dev.gantry.scheduler.control.InvalidControlException;
import dev.gantry.scheduler.lifecycle.Admission;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.submit.SubmissionPolicy;
import dev.gantry.scheduler.submit.SubmitTerms;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * sbatch on the controller thread: a submission is checked ({@link SubmissionPolicy}, {@link SubmitTerms}, its
 * dependencies), given ids (consecutive for an array's tasks) and records, committed by the caller, and only then
 * queued ({@link Admission#submitted}).
 */
final class Submissions {

    private final ClusterState state;
    private final SubmissionPolicy policy;
    private final SubmitTerms terms;
    private final QosTable qos;
    private final JobDependencies dependencies;
    private final Priorities priorities;
    private final JobIndex index;
    private final LifecycleApplier applier;
    private final int maxArraySize;
    /** SchedulerParameters=max_array_tasks: at most this many tasks in one array (MaxArraySize when unset). */
    private final int maxArrayTasks;
    private long nextJobId;

    Submissions(ClusterConfig config, ClusterState state, QosTable qos, JobDependencies dependencies,
            Priorities priorities, JobIndex index, LifecycleApplier applier, long maxStoredJobId) {
        this.state = state;
        this.policy = new SubmissionPolicy(config);
        this.terms = new SubmitTerms(config);
        this.qos = qos;
        this.dependencies = dependencies;
        this.priorities = priorities;
        this.index = index;
        this.applier = applier;
        this.maxArraySize = config.get(Keys.MAX_ARRAY_SIZE);
        this.maxArrayTasks = config.get(Keys.SCHEDULER_PARAMETERS).maxArrayTasks(maxArraySize);
        this.nextJobId = Math.max(config.get(Keys.FIRST_JOB_ID), maxStoredJobId + 1);
    }

    /** The id the next submission gets. */
    long nextJobId() {
        return nextJobId;
    }

    SubmissionPolicy policy() {
        return policy;
    }

    SubmitTerms terms() {
        return terms;
    }

    /**
     * Checks a submission and makes its job (or its array's tasks), not yet queued: the caller commits them, then
     * calls {@link #queued}.
     *
     * @throws Controller.RejectedSubmission when the policy, the QOS or the dependency refuses it (nothing kept)
     */
    List<JobRecord> accept(JobRequest request, Instant now) {
        SubmissionPolicy.Accepted a = switch (policy.check(request)) {
            case SubmissionPolicy.Rejected r -> throw new Controller.RejectedSubmission(r.message());
            case SubmissionPolicy.Accepted ok -> ok;
        };
        ArraySpec array;
        try {
            array = request.array().isBlank() ? null : ArraySpec.parse(request.array(), maxArraySize, maxArrayTasks);
        } catch (InvalidControlException e) {
            throw new Controller.RejectedSubmission(e.describe());
        }
        int count = array == null ? 1 : array.count();
        JobControls controls = switch (terms.resolve(request, qos.all(), a.partitions(),
                q -> activeJobs(request.user(), q), count)) {
            case SubmitTerms.Refused r -> throw new Controller.RejectedSubmission(r.message());
            case SubmitTerms.Resolved r -> r.controls();
        };
        try {
            if (!controls.dependency().isEmpty()) {
                DependencyPolicy.checkAtSubmit(dependencies.parse(controls.dependency()), 0, dependencies);
            }
        } catch (InvalidControlException e) {
            throw new Controller.RejectedSubmission(e.describe());
        }
        int[] tasks = array == null ? new int[] {-1} : array.taskIds();
        long first = nextJobId;
        nextJobId += tasks.length;
        List<JobRecord> jobs = new ArrayList<>(tasks.length);
        for (int i = 0; i < tasks.length; i++) {
            long id = first + i;
            JobControls c = array == null ? controls
                    : controls.forTask(first, tasks[i], request.array().trim(), array.maxRunning());
            JobRecord job = new JobRecord(id, request, a.name(), request.user(), request.uid(), request.gid(),
                    a.partitions(), a.ask(), a.timeLimitSeconds(), JobState.PENDING, false, PendingReason.NONE,
                    a.partitions().get(0), List.of(), now, null, null, now, 0, 0, basicPriority(id), c, null, 0);
            jobs.add(job.toBuilder().priority(priorities.initial(job, job.priority(), now)).build());
        }
        return jobs;
    }

    /** The committed jobs of a submission enter the queue; returns the job's id (the array's id). */
    long queued(List<JobRecord> jobs) {
        applier.apply(Admission.submitted(jobs));
        jobs.forEach(index::add);
        return jobs.get(0).id();
    }

    /** A user's pending and running jobs of a QOS (MaxSubmitJobsPerUser). */
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
}
