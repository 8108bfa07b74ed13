package dev.gantry.cli.testing;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelJobResponse;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.GetJobResponse;
import dev.gantry.api.v1.GetPrioritiesRequest;
import dev.gantry.api.v1.GetPrioritiesResponse;
import dev.gantry.api.v1.GetSharesRequest;
import dev.gantry.api.v1.GetSharesResponse;
import dev.gantry.api.v1.HoldJobRequest;
import dev.gantry.api.v1.HoldJobResponse;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListNodesResponse;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.ListPartitionsResponse;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.ReleaseJobRequest;
import dev.gantry.api.v1.ReleaseJobResponse;
import dev.gantry.api.v1.RequeueJobRequest;
import dev.gantry.api.v1.RequeueJobResponse;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.api.v1.SubmitJobResponse;
import dev.gantry.api.v1.TopJobRequest;
import dev.gantry.api.v1.TopJobResponse;
import dev.gantry.api.v1.UpdateJobRequest;
import dev.gantry.api.v1.UpdateJobResponse;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An in-memory Controller for tests and benchmarks: keeps jobs, nodes and partitions in maps, checks
 * submissions the way the real controller promises to (INVALID_ARGUMENT naming the field), and records the
 * last requests it received. Thread-safe (every method is synchronized).
 */
public final class FakeController extends ControllerGrpc.ControllerImplBase {

    private final TreeMap<Long, Job> jobs = new TreeMap<>();
    private final List<Node> nodes = new ArrayList<>();
    private final List<Partition> partitions = new ArrayList<>();
    private final Instant submitTime;
    private long nextJobId = 1;
    private SubmitJobRequest lastSubmit;
    private ListJobsRequest lastListJobs;
    private int listJobsCalls;
    private int streamJobsCalls;
    private boolean streamUnimplemented;
    private CancelJobRequest lastCancel;
    private Status failure;
    private Job.Builder endSubmittedJobsAs;
    private boolean watchUnimplemented;
    private final List<Watch> watches = new ArrayList<>();
    private final FakeJobControls controls = new FakeJobControls(jobs);
    private final Map<Class<?>, Object> lastRequests = new java.util.HashMap<>();
    private GetPrioritiesResponse priorities = GetPrioritiesResponse.getDefaultInstance();
    private GetSharesResponse shares = GetSharesResponse.getDefaultInstance();

    private record Watch(ListJobsRequest filter, StreamObserver<WatchJobsResponse> observer) {}

    /** A controller whose submissions are stamped {@code submitTime}. */
    public FakeController(Instant submitTime) {
        this.submitTime = submitTime;
    }

    public synchronized FakeController withNode(Node node) {
        nodes.add(node);
        return this;
    }

    public synchronized FakeController withPartition(Partition partition) {
        partitions.add(partition);
        return this;
    }

    /** Adds a job as it is (its id must be set) and moves the next id past it. */
    public synchronized FakeController withJob(Job job) {
        jobs.put(job.getJobId(), job);
        nextJobId = Math.max(nextJobId, job.getJobId() + 1);
        return this;
    }

    /** Submitted jobs end at once with this state, exit code and signal (for sbatch --wait). */
    public synchronized FakeController endingSubmittedJobsAs(JobState state, int exitCode, int exitSignal) {
        this.endSubmittedJobsAs = Job.newBuilder().setState(state).setExitCode(exitCode).setExitSignal(exitSignal);
        return this;
    }

    /** Answers WatchJobs with UNIMPLEMENTED, as a controller without it would. */
    public synchronized FakeController withoutWatchJobs() {
        this.watchUnimplemented = true;
        return this;
    }

    /** How many WatchJobs streams are open. */
    public synchronized int openWatches() {
        return watches.size();
    }

    /** Ends job {@code id} with {@code state} and {@code exitCode}, and tells every watcher of it. */
    public synchronized void end(long id, JobState state, int exitCode) {
        Job job = jobs.get(id).toBuilder().setState(state).setExitCode(exitCode).setCompleting(false).build();
        jobs.put(id, job);
        for (Watch w : watches) {
            if (w.filter().getJobIdsCount() == 0 || w.filter().getJobIdsList().contains(id)) {
                w.observer().onNext(WatchJobsResponse.newBuilder().setJob(job).build());
            }
        }
    }

    /** Ends every open WatchJobs stream with {@code status}, as a controller that stops does (UNAVAILABLE). */
    public synchronized void endWatches(Status status) {
        for (Watch w : watches) {
            w.observer().onError(status.asRuntimeException());
        }
        watches.clear();
    }

    /** Makes every call fail with {@code status} (null: stop failing). */
    public synchronized FakeController failingWith(Status status) {
        this.failure = status;
        return this;
    }

    public synchronized SubmitJobRequest lastSubmit() {
        return lastSubmit;
    }

    public synchronized ListJobsRequest lastListJobs() {
        return lastListJobs;
    }

    public synchronized CancelJobRequest lastCancel() {
        return lastCancel;
    }

    /** The last request of this type the controller received (job controls, sprio, sshare), or null. */
    public synchronized <T> T last(Class<T> type) {
        return type.cast(lastRequests.get(type));
    }

    /** GetPriorities answers this (sprio). */
    public synchronized FakeController withPriorities(GetPrioritiesResponse response) {
        this.priorities = response;
        return this;
    }

    /** GetShares answers this (sshare). */
    public synchronized FakeController withShares(GetSharesResponse response) {
        this.shares = response;
        return this;
    }

    public synchronized Optional<Job> job(long id) {
        return Optional.ofNullable(jobs.get(id));
    }

    private boolean failed(StreamObserver<?> observer) {
        if (failure != null) {
            observer.onError(failure.asRuntimeException());
            return true;
        }
        return false;
    }

    @Override
    public synchronized void submitJob(SubmitJobRequest request, StreamObserver<SubmitJobResponse> observer) {
        lastSubmit = request;
        if (failed(observer)) {
            return;
        }
        JobSpec spec = request.getSpec();
        String invalid = invalid(spec);
        if (invalid != null) {
            observer.onError(Status.INVALID_ARGUMENT.withDescription(invalid).asRuntimeException());
            return;
        }
        long id = nextJobId++;
        String partition = spec.getPartitionsCount() > 0 ? spec.getPartitions(0) : defaultPartition();
        Job job = Job.newBuilder()
                .setJobId(id)
                .setSpec(spec)
                .setState(JobState.JOB_STATE_PENDING)
                .setReason("Priority")
                .setPartition(partition)
                .setNumNodes(spec.hasMinNodes() ? spec.getMinNodes() : 1)
                .setNumCpus((spec.hasNtasks() ? spec.getNtasks() : 1) * (spec.hasCpusPerTask() ? spec.getCpusPerTask() : 1))
                .setNumTasks(spec.hasNtasks() ? spec.getNtasks() : 1)
                .setTimeLimitSeconds(spec.hasTimeLimitSeconds() ? spec.getTimeLimitSeconds() : -1)
                .setSubmitTime(Timestamp.newBuilder().setSeconds(submitTime.getEpochSecond()))
                .setPriority(1000)
                .build();
        if (endSubmittedJobsAs != null) {
            job = job.toBuilder().setState(endSubmittedJobsAs.getState()).setExitCode(endSubmittedJobsAs.getExitCode())
                    .setExitSignal(endSubmittedJobsAs.getExitSignal()).setReason("None").build();
        }
        jobs.put(id, job);
        observer.onNext(SubmitJobResponse.newBuilder().setJobId(id).build());
        observer.onCompleted();
    }

    /** The controller's checks that name the field: counts must be positive, partitions must exist. */
    private String invalid(JobSpec spec) {
        if (spec.hasMinNodes() && spec.getMinNodes() <= 0) {
            return "min_nodes: must be at least 1, got " + spec.getMinNodes();
        }
        if (spec.hasMaxNodes() && spec.getMaxNodes() < spec.getMinNodes()) {
            return "max_nodes: " + spec.getMaxNodes() + " is less than min_nodes " + spec.getMinNodes();
        }
        if (spec.hasNtasks() && spec.getNtasks() <= 0) {
            return "ntasks: must be at least 1, got " + spec.getNtasks();
        }
        if (spec.hasCpusPerTask() && spec.getCpusPerTask() <= 0) {
            return "cpus_per_task: must be at least 1, got " + spec.getCpusPerTask();
        }
        for (String p : spec.getPartitionsList()) {
            if (partitions.stream().noneMatch(q -> q.getName().equals(p))) {
                return "partitions: invalid partition specified: " + p;
            }
        }
        return null;
    }

    private String defaultPartition() {
        return partitions.stream().filter(Partition::getIsDefault).map(Partition::getName).findFirst().orElse("");
    }

    @Override
    public synchronized void cancelJob(CancelJobRequest request, StreamObserver<CancelJobResponse> observer) {
        lastCancel = request;
        if (failed(observer)) {
            return;
        }
        CancelJobResponse.Builder response = CancelJobResponse.newBuilder();
        for (long id : request.getJobIdsList()) {
            Job job = jobs.get(id);
            CancelResult.Builder result = CancelResult.newBuilder().setJobId(id);
            if (job == null) {
                result.setError("Invalid job id specified");
            } else if (finished(job) || job.getCompleting()) {
                result.setError("Job/step already completing or completed");
            } else if (request.getSignal() != 0 && job.getState() == JobState.JOB_STATE_PENDING) {
                result.setError("Job is pending execution");
            } else if (request.getSignal() != 0) {
                result.setOk(true); // signalled: the job goes on
            } else {
                jobs.put(id, job.toBuilder().setState(JobState.JOB_STATE_CANCELLED).setReason("None").build());
                result.setOk(true);
            }
            response.addResults(result);
        }
        observer.onNext(response.build());
        observer.onCompleted();
    }

    @Override
    public synchronized void getJob(GetJobRequest request, StreamObserver<GetJobResponse> observer) {
        if (failed(observer)) {
            return;
        }
        Job job = jobs.get(request.getJobId());
        if (job == null) {
            observer.onError(Status.NOT_FOUND.withDescription("job " + request.getJobId() + " not found").asRuntimeException());
            return;
        }
        observer.onNext(GetJobResponse.newBuilder().setJob(job).build());
        observer.onCompleted();
    }

    @Override
    public synchronized void streamJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
        streamJobsCalls++;
        if (streamUnimplemented) {
            observer.onError(Status.UNIMPLEMENTED.withDescription("StreamJobs").asRuntimeException());
            return;
        }
        // as the controller: ListJobs' pages one after another on one stream
        lastListJobs = request;
        if (failed(observer)) {
            return;
        }
        ListJobsRequest next = request;
        while (true) {
            ListJobsResponse page = page(next);
            observer.onNext(page);
            if (page.getNextPageToken().isEmpty()) {
                observer.onCompleted();
                return;
            }
            next = next.toBuilder().setPageToken(page.getNextPageToken()).build();
        }
    }

    /** StreamJobs answers UNIMPLEMENTED, as a controller from before it. */
    public synchronized FakeController withoutStreamJobs() {
        streamUnimplemented = true;
        return this;
    }

    /** How many StreamJobs calls were made. */
    public synchronized int streamJobsCalls() {
        return streamJobsCalls;
    }

    @Override
    public synchronized void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
        lastListJobs = request;
        listJobsCalls++;
        if (failed(observer)) {
            return;
        }
        observer.onNext(page(request));
        observer.onCompleted();
    }

    private ListJobsResponse page(ListJobsRequest request) {
        // as the controller: filtered, in id order, page by page (the token: the last id of the page before)
        int size = request.getPageSize() == 0 ? 1000 : request.getPageSize();
        long after = request.getPageToken().isEmpty() ? 0 : Long.parseLong(request.getPageToken());
        ListJobsResponse.Builder response = ListJobsResponse.newBuilder();
        for (Job job : jobs.tailMap(after, false).values()) {
            boolean named = (request.getJobIdsCount() == 0 && request.getArrayJobIdsCount() == 0)
                    || request.getJobIdsList().contains(job.getJobId())
                    || (job.getArrayJobId() != 0 && request.getArrayJobIdsList().contains(job.getArrayJobId()));
            boolean matches = named
                    && (request.getUsersCount() == 0 || request.getUsersList().contains(job.getSpec().getUser()))
                    && (request.getPartitionsCount() == 0 || request.getPartitionsList().contains(job.getPartition()))
                    && (request.getStatesCount() == 0 || request.getStatesList().contains(job.getState()));
            if (matches) {
                if (response.getJobsCount() == size) {
                    response.setNextPageToken(Long.toString(response.getJobs(size - 1).getJobId()));
                    break;
                }
                response.addJobs(job);
            }
        }
        return response.build();
    }

    /** How many ListJobs calls (pages) were answered. */
    public synchronized int listJobsCalls() {
        return listJobsCalls;
    }

    @Override
    public synchronized void watchJobs(WatchJobsRequest request, StreamObserver<WatchJobsResponse> observer) {
        if (watchUnimplemented) {
            observer.onError(Status.UNIMPLEMENTED.withDescription("WatchJobs").asRuntimeException());
            return;
        }
        ListJobsRequest filter = request.getFilter();
        for (Job job : jobs.values()) {
            if (filter.getJobIdsCount() == 0 || filter.getJobIdsList().contains(job.getJobId())) {
                observer.onNext(WatchJobsResponse.newBuilder().setJob(job).build());
            }
        }
        watches.add(new Watch(filter, observer));
    }

    @Override
    public synchronized void listNodes(ListNodesRequest request, StreamObserver<ListNodesResponse> observer) {
        if (failed(observer)) {
            return;
        }
        ListNodesResponse.Builder response = ListNodesResponse.newBuilder();
        nodes.stream().filter(n -> request.getNamesCount() == 0 || request.getNamesList().contains(n.getName()))
                .forEach(response::addNodes);
        observer.onNext(response.build());
        observer.onCompleted();
    }

    @Override
    public synchronized void listPartitions(ListPartitionsRequest request, StreamObserver<ListPartitionsResponse> observer) {
        if (failed(observer)) {
            return;
        }
        ListPartitionsResponse.Builder response = ListPartitionsResponse.newBuilder();
        partitions.stream().filter(p -> request.getNamesCount() == 0 || request.getNamesList().contains(p.getName()))
                .forEach(response::addPartitions);
        observer.onNext(response.build());
        observer.onCompleted();
    }

    /** Records the request; answers the failure set by {@link #failingWith} if any. */
    private boolean received(Object request, StreamObserver<?> observer) {
        lastRequests.put(request.getClass(), request);
        return failed(observer);
    }

    private static <T> void answer(StreamObserver<T> observer, T response) {
        observer.onNext(response);
        observer.onCompleted();
    }

    @Override
    public synchronized void holdJob(HoldJobRequest request, StreamObserver<HoldJobResponse> observer) {
        if (!received(request, observer)) {
            answer(observer, HoldJobResponse.newBuilder().addAllResults(controls.hold(request)).build());
        }
    }

    @Override
    public synchronized void releaseJob(ReleaseJobRequest request, StreamObserver<ReleaseJobResponse> observer) {
        if (!received(request, observer)) {
            answer(observer, ReleaseJobResponse.newBuilder().addAllResults(controls.release(request)).build());
        }
    }

    @Override
    public synchronized void requeueJob(RequeueJobRequest request, StreamObserver<RequeueJobResponse> observer) {
        if (!received(request, observer)) {
            answer(observer, RequeueJobResponse.newBuilder().addAllResults(controls.requeue(request)).build());
        }
    }

    @Override
    public synchronized void updateJob(UpdateJobRequest request, StreamObserver<UpdateJobResponse> observer) {
        if (!received(request, observer)) {
            answer(observer, UpdateJobResponse.newBuilder().addAllResults(controls.update(request)).build());
        }
    }

    /** Lets {@code user} suspend and resume jobs (an operator; root always may). */
    public synchronized FakeController withOperator(String user) {
        controls.operators.add(user);
        return this;
    }

    @Override
    public synchronized void suspendJobs(dev.gantry.api.v1.SuspendJobsRequest request,
            StreamObserver<dev.gantry.api.v1.SuspendJobsResponse> observer) {
        if (!received(request, observer) && controls.operator(request.getUser(), observer)) {
            answer(observer, dev.gantry.api.v1.SuspendJobsResponse.newBuilder()
                    .addAllResults(controls.suspend(request.getJobIdsList(), true)).build());
        }
    }

    @Override
    public synchronized void resumeJobs(dev.gantry.api.v1.ResumeJobsRequest request,
            StreamObserver<dev.gantry.api.v1.ResumeJobsResponse> observer) {
        if (!received(request, observer) && controls.operator(request.getUser(), observer)) {
            answer(observer, dev.gantry.api.v1.ResumeJobsResponse.newBuilder()
                    .addAllResults(controls.suspend(request.getJobIdsList(), false)).build());
        }
    }

    /**
     * scontrol token: "token-USER-LIFESPAN" for the caller (alice unless a username is asked); another user's is
     * PERMISSION_DENIED, as for a non-administrator.
     */
    @Override
    public synchronized void createToken(dev.gantry.api.v1.CreateTokenRequest request,
            StreamObserver<dev.gantry.api.v1.CreateTokenResponse> observer) {
        if (received(request, observer)) {
            return;
        }
        if (!request.getUsername().isEmpty() && !request.getUsername().equals("alice")) {
            observer.onError(Status.PERMISSION_DENIED.withDescription("username: only an administrator may get a token for "
                    + "another user (" + request.getUsername() + ")").asRuntimeException());
            return;
        }
        answer(observer, dev.gantry.api.v1.CreateTokenResponse.newBuilder().setUsername("alice")
                .setToken("token-alice-" + (request.getLifespanSeconds() == 0 ? 1800 : request.getLifespanSeconds())).build());
    }

    /**
     * scontrol write batch_script: the script of alice's own jobs; another user's job is PERMISSION_DENIED, an unknown
     * one NOT_FOUND, as the controller answers.
     */
    @Override
    public synchronized void getBatchScript(dev.gantry.api.v1.GetBatchScriptRequest request,
            StreamObserver<dev.gantry.api.v1.GetBatchScriptResponse> observer) {
        if (received(request, observer)) {
            return;
        }
        Job job = jobs.get(request.getJobId());
        if (job == null) {
            observer.onError(Status.NOT_FOUND.withDescription("job_id: Invalid job id specified: " + request.getJobId())
                    .asRuntimeException());
        } else if (!job.getSpec().getUser().equals("alice")) {
            observer.onError(Status.PERMISSION_DENIED.withDescription("job_id: the batch script of job " + request.getJobId()
                    + " is only for its owner, operators and administrators: Invalid user id").asRuntimeException());
        } else {
            answer(observer, dev.gantry.api.v1.GetBatchScriptResponse.newBuilder().setJobId(job.getJobId())
                    .setScript(job.getSpec().getScript()).build());
        }
    }

    @Override
    public synchronized void topJob(TopJobRequest request, StreamObserver<TopJobResponse> observer) {
        if (!received(request, observer)) {
            answer(observer, TopJobResponse.newBuilder().addAllResults(controls.top(request)).build());
        }
    }

    @Override
    public synchronized void getPriorities(GetPrioritiesRequest request, StreamObserver<GetPrioritiesResponse> observer) {
        if (!received(request, observer)) {
            answer(observer, priorities);
        }
    }

    @Override
    public synchronized void getShares(GetSharesRequest request, StreamObserver<GetSharesResponse> observer) {
        if (!received(request, observer)) {
            answer(observer, shares);
        }
    }

    private static boolean finished(Job job) {
        return switch (job.getState()) {
            case JOB_STATE_PENDING, JOB_STATE_RUNNING, JOB_STATE_SUSPENDED -> false;
            default -> true;
        };
    }
}
