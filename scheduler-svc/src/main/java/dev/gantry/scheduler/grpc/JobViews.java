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
import dev.gantry.scheduler.runtime.Audit;
import dev.gantry.scheduler.runtime.Controller;
import dev.gantry.scheduler.runtime.JobQuery;
import dev.gantry.scheduler.runtime.JobWatch;
import dev.gantry.scheduler.store.JobStore;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.Executor;

/**
 * The client API's reads of jobs (GetJob, GetBatchScript, ListJobs, WatchJobs) as the caller may see them
 * ({@link Visibility}): ControllerGrpcService hands these over with the authenticated caller.
 */
final class JobViews {

    /** ListJobs' page size when the request leaves it 0. */
    static final int DEFAULT_PAGE_SIZE = 1000;
    /** The largest page size honoured; a larger one counts as this. */
    static final int MAX_PAGE_SIZE = 10_000;
    /** A page stops before its jobs would pass this many bytes (clients' default inbound limit is 4 MiB). */
    static final int PAGE_BYTES = 2 << 20;

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
     * Slurm's pack_one_job does. Script and environment come only in JOB_VIEW_PRIVATE, to the owner, operators and
     * administrators (an operator's or administrator's read of another user's is audited).
     */
    void getJob(GetJobRequest request, Requester who, StreamObserver<GetJobResponse> out) {
        findJob(request.getJobId(), request.getView(), (found, error) -> {
            if (error != null) {
                out.onError(error);
            } else if (found == null || !visibility.seesJob(who, found.getSpec().getUser())) {
                out.onError(Status.NOT_FOUND.withDescription("job_id: Invalid job id specified: " + request.getJobId())
                        .asRuntimeException());
            } else if (request.getView() == dev.gantry.api.v1.JobView.JOB_VIEW_PRIVATE) {
                String owner = found.getSpec().getUser();
                if (!visibility.seesJobInFull(who, owner)) {
                    Audit.refused(java.time.Instant.now(), who, "script and environment of job " + found.getJobId() + " of " + owner);
                    out.onError(Status.PERMISSION_DENIED.withDescription("view: the script and environment of job "
                            + found.getJobId() + " are only for its owner, operators and administrators").asRuntimeException());
                    return;
                }
                if (!who.is(owner)) {
                    Audit.record(java.time.Instant.now(), who, "read the script and environment of job " + found.getJobId() + " of " + owner);
                }
                out.onNext(GetJobResponse.newBuilder().setJob(found).build());
                out.onCompleted();
            } else {
                out.onNext(GetJobResponse.newBuilder().setJob(found).build());
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
        findJob(request.getJobId(), dev.gantry.api.v1.JobView.JOB_VIEW_PRIVATE, (found, error) -> {
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
     * The job in {@code view} (controller's memory, or the database once purged after MinJobAge), or null; handed to
     * {@code then} off the controller thread, with a status to answer instead when the lookup failed.
     */
    private void findJob(long id, dev.gantry.api.v1.JobView view, java.util.function.BiConsumer<Job, RuntimeException> then) {
        controller.queries.findJob(id, view).whenCompleteAsync(Answers.HOP, responses).whenComplete((job, error) -> {
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
                            .map(j -> JobProtos.answer(j, j.endTime() != null ? j.endTime() : j.submitTime(), view).build())
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

    /**
     * squeue, one page: with PrivateData=jobs only the caller's own jobs unless privileged; nobody's script or
     * environment.
     */
    void listJobs(ListJobsRequest request, Requester who, StreamObserver<ListJobsResponse> out) {
        Listing listing = listing(request, "ListJobs", who, out);
        if (listing != null) {
            Answers.answer(listing.page(), responses, out, listing::response);
        }
    }

    /**
     * ListJobs' pages on one stream: each page is made (on the controller thread, one page at a time, so a long
     * listing never holds it for long) as soon as the last is sent and the stream can take more (gRPC's flow
     * control: a slow reader is not buffered for).
     */
    void streamJobs(ListJobsRequest request, Requester who, StreamObserver<ListJobsResponse> out) {
        ServerCallStreamObserver<ListJobsResponse> call = (ServerCallStreamObserver<ListJobsResponse>) out;
        java.util.concurrent.atomic.AtomicBoolean waiting = new java.util.concurrent.atomic.AtomicBoolean();
        Listing[] next = new Listing[1];
        Runnable[] send = new Runnable[1];
        send[0] = () -> next[0].page().whenCompleteAsync((page, error) -> {
            if (call.isCancelled()) {
                return;
            }
            if (error != null) {
                call.onError(ControllerGrpcService.status(error));
                return;
            }
            ListJobsResponse response = next[0].response(page);
            call.onNext(response);
            if (!page.more()) {
                call.onCompleted();
                return;
            }
            next[0] = next[0].after(page.lastId());
            waiting.set(true);
            if (call.isReady() && waiting.compareAndSet(true, false)) {
                send[0].run();
            }
        }, responses);
        call.setOnReadyHandler(() -> {
            if (waiting.compareAndSet(true, false)) {
                send[0].run();
            }
        });
        call.setOnCancelHandler(() -> { }); // the client went away: the next page checks isCancelled and stops
        next[0] = listing(request, "StreamJobs", who, out);
        if (next[0] != null) {
            send[0].run();
        }
    }

    /** One page to answer: the query, where it starts and how much it may hold. */
    private record Listing(JobViews views, JobQuery query, long after, int size, Requester who) {

        java.util.concurrent.CompletableFuture<dev.gantry.scheduler.runtime.JobQueries.JobPage> page() {
            return views.controller.queries.listJobs(query, after, size, PAGE_BYTES, who, views.visibility);
        }

        Listing after(long lastId) {
            return new Listing(views, query, lastId, size, who);
        }

        ListJobsResponse response(dev.gantry.scheduler.runtime.JobQueries.JobPage page) {
            return ListJobsResponse.newBuilder().addAllJobs(page.jobs())
                    .setNextPageToken(page.more() ? PageTokens.token(page.lastId(), query.fingerprint()) : "").build();
        }
    }

    /** The first page {@code request} asks for, or null after answering INVALID_ARGUMENT naming the field at fault. */
    private Listing listing(ListJobsRequest request, String call, Requester who, StreamObserver<ListJobsResponse> out) {
        JobQuery query = JobQuery.of(request);
        try {
            if (request.getPageSize() < 0) {
                throw new IllegalArgumentException("page_size: must be 0 (the default, " + DEFAULT_PAGE_SIZE
                        + ") or more, got " + request.getPageSize());
            }
            refusePrivate(request.getView(), call);
            long after = PageTokens.after(request.getPageToken(), query.fingerprint());
            int size = request.getPageSize() == 0 ? DEFAULT_PAGE_SIZE : Math.min(request.getPageSize(), MAX_PAGE_SIZE);
            return new Listing(this, query, after, size, who);
        } catch (IllegalArgumentException e) {
            out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return null;
        }
    }

    void watchJobs(WatchJobsRequest request, Requester who, StreamObserver<WatchJobsResponse> out) {
        ListJobsRequest filter = request.getFilter();
        try {
            if (filter.getPageSize() != 0 || !filter.getPageToken().isEmpty()) {
                throw new IllegalArgumentException("filter.page_size, filter.page_token: a watch is not paged; leave them unset");
            }
            refusePrivate(filter.getView(), "WatchJobs");
        } catch (IllegalArgumentException e) {
            out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        jobWatch.watch(JobQuery.of(filter), who, out);
    }

    private static void refusePrivate(dev.gantry.api.v1.JobView view, String call) {
        if (view == dev.gantry.api.v1.JobView.JOB_VIEW_PRIVATE) {
            throw new IllegalArgumentException("view: JOB_VIEW_PRIVATE is for GetJob only; " + call
                    + " answers JOB_VIEW_SUMMARY or JOB_VIEW_FULL (scripts: GetBatchScript)");
        }
    }
}
