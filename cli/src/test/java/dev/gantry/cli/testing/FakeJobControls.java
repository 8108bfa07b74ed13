package dev.gantry.cli.testing;

import dev.gantry.api.v1.HoldJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobHold;
import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ReleaseJobRequest;
import dev.gantry.api.v1.RequeueJobRequest;
import dev.gantry.api.v1.TopJobRequest;
import dev.gantry.api.v1.UpdateJobRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The job controls of {@link FakeController} (hold, release, requeue, update, top), on its job map, with the
 * controller's promised answers: one {@link JobResult} per id, Slurm's text when refused. "root" is the only
 * administrator. Not thread-safe: FakeController calls it under its lock.
 */
final class FakeJobControls {

    static final String INVALID_ID = "Invalid job id specified";
    static final String NOT_PENDING = "Job is no longer pending execution";
    static final String DENIED = "Access/permission denied";
    static final String PENDING = "Job is pending execution";

    private final Map<Long, Job> jobs;

    FakeJobControls(Map<Long, Job> jobs) {
        this.jobs = jobs;
    }

    private static boolean admin(String user) {
        return "root".equals(user);
    }

    /** Who may suspend and resume besides root ({@link FakeController#withOperator}). */
    final java.util.Set<String> operators = new java.util.HashSet<>();

    /** SuspendJobs/ResumeJobs callers: only root and operators; anyone else gets PERMISSION_DENIED. */
    boolean operator(String user, io.grpc.stub.StreamObserver<?> observer) {
        if (admin(user) || operators.contains(user)) {
            return true;
        }
        observer.onError(io.grpc.Status.PERMISSION_DENIED.withDescription(DENIED + " (user " + user
                + " is not an operator or administrator)").asRuntimeException());
        return false;
    }

    /** scontrol suspend (RUNNING → SUSPENDED) or resume (SUSPENDED → RUNNING), with Slurm's refusals. */
    List<JobResult> suspend(List<Long> ids, boolean suspend) {
        return each(ids, "root", job -> {
            if (job.getState() == JobState.JOB_STATE_PENDING) {
                throw new Refused(PENDING);
            }
            JobState from = suspend ? JobState.JOB_STATE_RUNNING : JobState.JOB_STATE_SUSPENDED;
            if (job.getState() != from) {
                throw new Refused("Requested operation is presently disabled");
            }
            return job.toBuilder().setState(suspend ? JobState.JOB_STATE_SUSPENDED : JobState.JOB_STATE_RUNNING)
                    .setAdminSuspended(suspend).build();
        });
    }

    private interface Change {
        /** The changed job, or a refusal text as the exception message. */
        Job apply(Job job);
    }

    private static final class Refused extends RuntimeException {
        Refused(String text) {
            super(text, null, false, false);
        }
    }

    private List<JobResult> each(List<Long> ids, String user, Change change) {
        List<JobResult> results = new ArrayList<>();
        for (long id : ids) {
            Job job = jobs.get(id);
            JobResult.Builder r = JobResult.newBuilder().setJobId(id);
            if (job == null) {
                results.add(r.setError(INVALID_ID).build());
                continue;
            }
            if (!admin(user) && !job.getSpec().getUser().equals(user)) {
                results.add(r.setError(DENIED).build());
                continue;
            }
            try {
                jobs.put(id, change.apply(job));
                results.add(r.setOk(true).build());
            } catch (Refused e) {
                results.add(r.setError(e.getMessage()).build());
            }
        }
        return results;
    }

    private static void requirePending(Job job) {
        if (job.getState() != JobState.JOB_STATE_PENDING) {
            throw new Refused(NOT_PENDING);
        }
    }

    List<JobResult> hold(HoldJobRequest req) {
        boolean adminHold = admin(req.getUser()) && !req.getUserHold();
        return each(req.getJobIdsList(), req.getUser(), job -> {
            requirePending(job);
            if (job.getHold() == JobHold.JOB_HOLD_ADMIN && !admin(req.getUser())) {
                throw new Refused(DENIED);
            }
            return job.toBuilder().setHold(adminHold ? JobHold.JOB_HOLD_ADMIN : JobHold.JOB_HOLD_USER).setPriority(0)
                    .setReason(adminHold ? "JobHeldAdmin" : "JobHeldUser").build();
        });
    }

    List<JobResult> release(ReleaseJobRequest req) {
        return each(req.getJobIdsList(), req.getUser(), job -> {
            requirePending(job);
            if (job.getHold() == JobHold.JOB_HOLD_ADMIN && !admin(req.getUser())) {
                throw new Refused(DENIED);
            }
            return job.toBuilder().setHold(JobHold.JOB_HOLD_UNSPECIFIED).setPriority(1000).setReason("Priority").build();
        });
    }

    List<JobResult> requeue(RequeueJobRequest req) {
        return each(req.getJobIdsList(), req.getUser(), job -> {
            if (job.getState() == JobState.JOB_STATE_PENDING) {
                throw new Refused(PENDING);
            }
            Job.Builder b = job.toBuilder().setState(JobState.JOB_STATE_PENDING).setCompleting(false)
                    .setRestartCount(job.getRestartCount() + 1).setReason("BeginTime").clearNodes().clearNodeList();
            if (req.getHold()) {
                b.setHold(JobHold.JOB_HOLD_USER).setPriority(0).setReason("JobHeldUser");
            }
            return b.build();
        });
    }

    List<JobResult> update(UpdateJobRequest req) {
        return each(req.getJobIdsList(), req.getUser(), job -> {
            Job.Builder b = job.toBuilder();
            if (req.hasPriority()) {
                if (!admin(req.getUser())) {
                    throw new Refused(DENIED);
                }
                b.setPriority(req.getPriority()).setAdminPriority(true);
            }
            if (req.hasNice()) {
                if (req.getNice() < 0 && !admin(req.getUser())) {
                    throw new Refused(DENIED);
                }
                b.setNice(req.getNice());
            }
            if (req.hasTimeLimitSeconds()) {
                b.setTimeLimitSeconds(req.getTimeLimitSeconds());
            }
            if (req.getPartitionsCount() > 0 || req.hasMinNodes()) {
                requirePending(job);
                if (req.getPartitionsCount() > 0) {
                    b.setPartition(req.getPartitions(0)).clearPartitions().addAllPartitions(req.getPartitionsList());
                }
                if (req.hasMinNodes()) {
                    b.setNumNodes(req.getMinNodes()).setMinNodes(req.getMinNodes());
                }
                if (req.hasMaxNodes()) {
                    b.setMaxNodes(req.getMaxNodes());
                }
            }
            return b.build();
        });
    }

    List<JobResult> top(TopJobRequest req) {
        return each(req.getJobIdsList(), req.getUser(), job -> {
            requirePending(job);
            return job.toBuilder().setPriority(job.getPriority() + 1).build();
        });
    }
}
