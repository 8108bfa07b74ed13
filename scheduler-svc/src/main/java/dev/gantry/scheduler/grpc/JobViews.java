package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.GetBatchScriptRequest;
import dev.gantry.api.v1.GetBatchScriptResponse;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.GetJobResponse;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.Redaction;
import dev.gantry.scheduler.runtime.Audit;
import dev.gantry.scheduler.runtime.Controller;
import dev.gantry.scheduler.runtime.JobQuery;
import dev.gantry.scheduler.runtime.JobWatch;
import dev.gantry.scheduler.store.JobStore;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.Executor;

/**
 * The client API's reads of jobs (GetJob, GetBatchScript, ListJobs, WatchJobs) as the caller may see them
 * ({@link Visibility}): ControllerGrpcService hands these over with the authenticated caller.
 */
final class JobViews {

    private final Controller controller;
    private final JobStore store;
    private final JobWatch jobWatch;
    private final Executor responses;
    private final Visibility visibility;

    JobViews(Controller controller, JobStore store, JobWatch jobWatch, Executor responses, Visibility visibility) {
        this.controller = controller;
        this.store = store;
        this.jobWatch = jobWatch;
        this.responses = responses;
        this.visibility = visibility;
    }

    /**
     * scontrol show job: a job the caller may not see (PrivateData=jobs) is answered as one that does not exist, as
     * Slurm's pack_one_job does; one the caller sees but does not own comes without script and environment.
     */
    void getJob(GetJobRequest request, Requester who, StreamObserver<GetJobResponse> out) {
        findJob(request.getJobId(), (found, error) -> {
            if (error != null) {
                out.onError(error);
            } else if (found == null || !visibility.seesJob(who, found.getSpec().getUser())) {
                out.onError(Status.NOT_FOUND.withDescription("job_id: Invalid job id specified: " + request.getJobId())
                        .asRuntimeException());
            } else {
                Job shown = visibility.seesJobInFull(who, found.getSpec().getUser()) ? found : Redaction.withoutPrivateParts(found);
                out.onNext(GetJobResponse.newBuilder().setJob(shown).build());
                out.onCompleted();
            }
        });
    }

    /**
     * scontrol write batch_script: the script to the job's owner, operators and administrators; anyone else is refused
     * whatever PrivateData says (Slurm's REQUEST_BATCH_SCRIPT answers "Invalid user id"), and an operator's or
     * administrator's read of another user's script is audited.
     */
    void getBatchScript(GetBatchScriptRequest request, Requester who, StreamObserver<GetBatchScriptResponse> out) {
        findJob(request.getJobId(), (found, error) -> {
            if (error != null) {
                out.onError(error);
                return;
            }
            if (found == null) {
                out.onError(Status.NOT_FOUND.withDescription("job_id: Invalid job id specified: " + request.getJobId())
                        .asRuntimeException());
                return;
            }
            String owner = found.getSpec().getUser();
            if (!visibility.seesJobInFull(who, owner)) {
                Audit.refused(java.time.Instant.now(), who, "batch script of job " + found.getJobId() + " of " + owner);
                out.onError(Status.PERMISSION_DENIED.withDescription("job_id: the batch script of job " + found.getJobId()
                        + " is only for its owner, operators and administrators: Invalid user id").asRuntimeException());
                return;
            }
            if (!who.is(owner)) {
                Audit.record(java.time.Instant.now(), who, "read the batch script of job " + found.getJobId() + " of " + owner);
            }
            out.onNext(GetBatchScriptResponse.newBuilder().setJobId(found.getJobId()).setScript(found.getSpec().getScript())
                    .build());
            out.onCompleted();
        });
    }

    /**
     * The job whole (controller's memory, or the database once purged after MinJobAge), or null; handed to
     * {@code then} off the controller thread, with a status to answer instead when the lookup failed.
     */
    private void findJob(long id, java.util.function.BiConsumer<Job, RuntimeException> then) {
        controller.queries.findJob(id).whenCompleteAsync(Answers.HOP, responses).whenComplete((job, error) -> {
            if (error != null) {
                then.accept(null, ControllerGrpcService.status(error));
                return;
            }
            Job found = job;
            if (found == null) {
                try {
                    // Purged from memory after MinJobAge: the database still has it. It has ended, so its run time
                    // counts up to its end whatever the time now.
                    found = store.find(id)
                            .map(j -> JobProtos.answer(j, j.endTime() != null ? j.endTime() : j.submitTime()).build())
                            .orElse(null);
                } catch (Exception e) {
                    then.accept(null, Status.UNAVAILABLE.withDescription("database unavailable: " + e.getMessage())
                            .asRuntimeException()); // the wording sbatch and scontrol show as it is
                    return;
                }
            }
            then.accept(found, null);
        });
    }

    /** squeue: with PrivateData=jobs only the caller's own jobs unless privileged; others' without script and environment. */
    void listJobs(ListJobsRequest request, Requester who, StreamObserver<ListJobsResponse> out) {
        Answers.answer(controller.queries.listJobs(JobQuery.of(request), who, visibility), responses, out,
                jobs -> ListJobsResponse.newBuilder().addAllJobs(jobs).build());
    }

    void watchJobs(WatchJobsRequest request, Requester who, StreamObserver<WatchJobsResponse> out) {
        jobWatch.watch(JobQuery.of(request.getFilter()), who, out);
    }
}
