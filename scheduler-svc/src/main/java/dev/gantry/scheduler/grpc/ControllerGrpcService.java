package dev.gantry.scheduler.grpc;

import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelJobResponse;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.api.v1.ControllerGrpc;
import dev.gantry.api.v1.CreateTokenRequest;
import dev.gantry.api.v1.CreateTokenResponse;
import dev.gantry.api.v1.GetBatchScriptRequest;
import dev.gantry.api.v1.GetBatchScriptResponse;
import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.GetJobResponse;
import dev.gantry.api.v1.GetPrioritiesRequest;
import dev.gantry.api.v1.GetPrioritiesResponse;
import dev.gantry.api.v1.GetSharesRequest;
import dev.gantry.api.v1.GetSharesResponse;
import dev.gantry.api.v1.HoldJobRequest;
import dev.gantry.api.v1.HoldJobResponse;
import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListJobsResponse;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListNodesResponse;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.ListPartitionsResponse;
import dev.gantry.api.v1.ListQosRequest;
import dev.gantry.api.v1.ListQosResponse;
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
import dev.gantry.api.v1.UpdateQosRequest;
import dev.gantry.api.v1.UpdateQosResponse;
import dev.gantry.api.v1.WatchJobsRequest;
import dev.gantry.api.v1.WatchJobsResponse;
import dev.gantry.common.auth.Identity;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.posix.PosixAccounts;
import dev.gantry.scheduler.access.PrivateData;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.access.Visibility;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.api.PriorityProtos;
import dev.gantry.scheduler.api.QosProtos;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.Role;
import dev.gantry.scheduler.runtime.Audit;
import dev.gantry.scheduler.runtime.Controller;
import dev.gantry.scheduler.runtime.JobQuery;
import dev.gantry.scheduler.runtime.JobWatch;
import dev.gantry.scheduler.runtime.SchedulerRuntime;
import dev.gantry.scheduler.store.JobStore;
import dev.gantry.scheduler.submit.RunAs;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/** The client API (controller.proto) over the controller: maps, calls one method, maps back. */
@Singleton
public final class ControllerGrpcService extends ControllerGrpc.ControllerImplBase {

    private final Controller controller;
    private final ClusterState state;
    private final JobStore store;
    private final JobWatch jobWatch;
    private final Executor responses;
    private final TokenIssuer tokens;
    /** Who sees what (PrivateData, scripts and environments); the config never changes while serving. */
    private final Visibility visibility;
    private final JobViews views;

    @Inject
    public ControllerGrpcService(SchedulerRuntime runtime, dev.gantry.common.authn.CallerAuthenticator authenticator) {
        this(runtime.controller(), runtime.state(), runtime.store(), runtime.jobWatch(), runtime.responses(),
                new TokenIssuer(authenticator.settings().keys().hs256(), java.time.InstantSource.system()));
    }

    /**
     * The service over a controller's parts (tests serve it in-process this way).
     *
     * @param state the controller's state, read on the controller thread only
     * @param store where jobs purged from memory are still found
     * @param responses where responses are completed: never the controller thread
     */
    public ControllerGrpcService(Controller controller, ClusterState state, JobStore store, JobWatch jobWatch,
            Executor responses, TokenIssuer tokens) {
        this.tokens = tokens;
        this.controller = controller;
        this.state = state;
        this.store = store;
        this.jobWatch = jobWatch;
        this.responses = responses;
        this.visibility = new Visibility(PrivateData.of(state.config()));
        this.views = new JobViews(controller, store, jobWatch, responses, visibility);
    }

    @Override
    public void submitJob(SubmitJobRequest request, StreamObserver<SubmitJobResponse> out) {
        if (!request.hasSpec()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("spec: is required").asRuntimeException());
            return;
        }
        JobRequest submitted;
        try {
            submitted = ownedByCaller(JobRequests.fromProto(request.getSpec()));
        } catch (SecurityException e) {
            out.onError(Status.PERMISSION_DENIED.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        // Answered where the commit's follow-up ran (the controller thread, once the job is in its state): sending a
        // small response does not block, and one thread hop less per submission counts at thousands per second.
        controller.submit(submitted).whenComplete((id, error) ->
                Answers.reply(out, error != null ? null : SubmitJobResponse.newBuilder().setJobId(id).build(), error));
    }

    @Override
    public void cancelJob(CancelJobRequest request, StreamObserver<CancelJobResponse> out) {
        if (request.getJobIdsCount() == 0) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("job_ids: at least one job id is required").asRuntimeException());
            return;
        }
        if (request.getSignal() != 0) {
            signalJobs(request, out);
            return;
        }
        answer(controller.lifecycle.cancel(request.getJobIdsList(), requester()), out, outcomes -> {
            CancelJobResponse.Builder b = CancelJobResponse.newBuilder();
            for (var o : outcomes) {
                b.addResults(CancelResult.newBuilder().setJobId(o.jobId()).setOk(o.error() == null)
                        .setError(o.error() == null ? "" : o.error())
                        .setCode(o.error() == null ? 0 : dev.gantry.scheduler.runtime.JobCommands.code(o.error())));
            }
            return b.build();
        });
    }

    /** scancel --signal: the same answer shape as a cancel, one result per id. */
    private void signalJobs(CancelJobRequest request, StreamObserver<CancelJobResponse> out) {
        if (request.getSignal() < 1 || request.getSignal() > 64) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("signal: must be 1..64, got " + request.getSignal()).asRuntimeException());
            return;
        }
        answer(controller.commands.signal(request.getJobIdsList(), requester(), request.getSignal()), out, results -> {
            CancelJobResponse.Builder b = CancelJobResponse.newBuilder();
            results.forEach(r -> b.addResults(CancelResult.newBuilder().setJobId(r.getJobId()).setOk(r.getOk())
                    .setError(r.getError()).setCode(r.getCode())));
            return b.build();
        });
    }

    @Override
    public void getJob(GetJobRequest request, StreamObserver<GetJobResponse> out) {
        views.getJob(request, requester(), out);
    }

    @Override
    public void getBatchScript(GetBatchScriptRequest request, StreamObserver<GetBatchScriptResponse> out) {
        views.getBatchScript(request, requester(), out);
    }

    @Override
    public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> out) {
        views.listJobs(request, requester(), out);
    }

    @Override
    public void streamJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> out) {
        views.streamJobs(request, requester(), out);
    }

    @Override
    public void watchJobs(WatchJobsRequest request, StreamObserver<WatchJobsResponse> out) {
        views.watchJobs(request, requester(), out);
    }

    @Override
    public void listNodes(ListNodesRequest request, StreamObserver<ListNodesResponse> out) {
        if (privateTo(visibility.seesNodes(requester()), "nodes", out)) {
            return;
        }
        var names = List.copyOf(request.getNamesList());
        answer(controller.call(() -> ListNodesResponse.newBuilder().addAllNodes(named(state.nodes(), names, n -> n.name())
                .map(n -> ClusterProtos.node(state, n)).toList()).build()), out, Function.identity());
    }

    @Override
    public void listPartitions(ListPartitionsRequest request, StreamObserver<ListPartitionsResponse> out) {
        if (privateTo(visibility.seesPartitions(requester()), "partitions", out)) {
            return;
        }
        var names = List.copyOf(request.getNamesList());
        answer(controller.call(() -> ListPartitionsResponse.newBuilder().addAllPartitions(
                named(state.config().partitions(), names, p -> p.name())
                        .map(p -> ClusterProtos.partition(state, p, controller.accounting.preemptSettings())).toList()).build()),
                out, Function.identity());
    }

    // ---------------------------------------------------------------- job controls (scontrol)

    @Override
    public void holdJob(HoldJobRequest request, StreamObserver<HoldJobResponse> out) {
        jobControl(request.getJobIdsCount(), out,
                () -> controller.commands.hold(request.getJobIdsList(), requester(), request.getUserHold()),
                r -> HoldJobResponse.newBuilder().addAllResults(r).build());
    }

    @Override
    public void suspendJobs(dev.gantry.api.v1.SuspendJobsRequest request,
            StreamObserver<dev.gantry.api.v1.SuspendJobsResponse> out) {
        jobControl(request.getJobIdsCount(), out,
                () -> controller.suspension.suspend(request.getJobIdsList(), requester()),
                r -> dev.gantry.api.v1.SuspendJobsResponse.newBuilder().addAllResults(r).build());
    }

    @Override
    public void resumeJobs(dev.gantry.api.v1.ResumeJobsRequest request,
            StreamObserver<dev.gantry.api.v1.ResumeJobsResponse> out) {
        jobControl(request.getJobIdsCount(), out,
                () -> controller.suspension.resume(request.getJobIdsList(), requester()),
                r -> dev.gantry.api.v1.ResumeJobsResponse.newBuilder().addAllResults(r).build());
    }

    @Override
    public void releaseJob(ReleaseJobRequest request, StreamObserver<ReleaseJobResponse> out) {
        jobControl(request.getJobIdsCount(), out,
                () -> controller.commands.release(request.getJobIdsList(), requester()),
                r -> ReleaseJobResponse.newBuilder().addAllResults(r).build());
    }

    @Override
    public void requeueJob(RequeueJobRequest request, StreamObserver<RequeueJobResponse> out) {
        jobControl(request.getJobIdsCount(), out,
                () -> controller.commands.requeue(request.getJobIdsList(), requester(), request.getHold()),
                r -> RequeueJobResponse.newBuilder().addAllResults(r).build());
    }

    @Override
    public void updateJob(UpdateJobRequest request, StreamObserver<UpdateJobResponse> out) {
        // an empty id list is refused first (in jobControl), as for every control
        if (request.getJobIdsCount() > 0 && request.hasMinNodes() && request.getMinNodes() < 1) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("min_nodes: must be at least 1, got "
                    + request.getMinNodes()).asRuntimeException());
            return;
        }
        jobControl(request.getJobIdsCount(), out, () -> {
            Requester who = requester();
            return controller.commands.update(request.toBuilder().setUser(who.user()).build(), who);
        }, r -> UpdateJobResponse.newBuilder().addAllResults(r).build());
    }

    @Override
    public void topJob(TopJobRequest request, StreamObserver<TopJobResponse> out) {
        jobControl(request.getJobIdsCount(), out,
                () -> controller.commands.top(request.getJobIdsList(), requester()),
                r -> TopJobResponse.newBuilder().addAllResults(r).build());
    }

    /**
     * One job control over a list of ids: an empty list is INVALID_ARGUMENT ({@link #noIds}); otherwise
     * {@code control} runs and its per-job results are answered, as {@code response} wraps them, from the
     * responses executor.
     */
    private <R> void jobControl(int idCount, StreamObserver<R> out,
            Supplier<CompletableFuture<List<JobResult>>> control,
            Function<List<JobResult>, R> response) {
        if (!noIds(idCount, out)) {
            answer(control.get(), out, response);
        }
    }

    /** {@link Answers#answer} from this service's responses executor. */
    private <T, R> void answer(CompletableFuture<T> pending, StreamObserver<R> out, Function<T, R> response) {
        Answers.answer(pending, responses, out, response);
    }

    // ---------------------------------------------------------------- priority and fair share

    @Override
    public void getPriorities(GetPrioritiesRequest request, StreamObserver<GetPrioritiesResponse> out) {
        JobQuery query = JobQuery.of(ListJobsRequest.newBuilder().addAllJobIds(request.getJobIdsList())
                .addAllUsers(request.getUsersList()).addAllPartitions(request.getPartitionsList()).build());
        var weights = controller.accounting.prioritiesView().weights();
        Requester who = requester();
        answer(controller.accounting.priorityFactors(query), out, rows -> {
            GetPrioritiesResponse.Builder b = GetPrioritiesResponse.newBuilder();
            // sprio follows PrivateData=jobs, not usage (Slurm's priority_p_get_priority_factors_list)
            rows.stream().filter(f -> visibility.seesJob(who, f.priority().user()))
                    .forEach(f -> b.addPriorities(PriorityProtos.priority(f.priority(), f.adminSet())));
            if (weights != null) {
                b.setWeights(PriorityProtos.weights(weights.weights()));
            }
            return b.build();
        });
    }

    @Override
    public void getShares(GetSharesRequest request, StreamObserver<GetSharesResponse> out) {
        var accounts = java.util.Set.copyOf(request.getAccountsList());
        var users = java.util.Set.copyOf(request.getUsersList());
        String form = controller.accounting.prioritiesView().form();
        Requester who = requester();
        answer(controller.accounting.shares(), out, rows -> {
            GetSharesResponse.Builder b = GetSharesResponse.newBuilder().setForm(form);
            for (var r : rows) {
                boolean accountOk = accounts.isEmpty() || accounts.contains(r.account());
                boolean userOk = r.user().isEmpty() || request.getAllUsers() || users.isEmpty() || users.contains(r.user());
                // PrivateData=usage: a user's own association rows only, no account rows (Slurm's assoc_mgr_get_shares)
                if (accountOk && userOk && visibility.seesShareRow(who, r.user())) {
                    b.addRows(PriorityProtos.share(r));
                }
            }
            return b.build();
        });
    }

    // ---------------------------------------------------------------- QOS

    @Override
    public void listQos(ListQosRequest request, StreamObserver<ListQosResponse> out) {
        answer(controller.accounting.listQos(List.copyOf(request.getNamesList())), out,
                r -> ListQosResponse.newBuilder().addAllQos(r.stream().map(QosProtos::toProto).toList()).build());
    }

    @Override
    public void updateQos(UpdateQosRequest request, StreamObserver<UpdateQosResponse> out) {
        if (!request.hasQos()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("qos: is required").asRuntimeException());
            return;
        }
        answer(controller.accounting.updateQos(request.getQos(), requester()), out,
                r -> UpdateQosResponse.newBuilder().setQos(QosProtos.toProto(r)).build());
    }

    /** The items of {@code all} that {@code names} names (every one when it names none), in their order. */
    private static <T> java.util.stream.Stream<T> named(java.util.Collection<T> all, List<String> names,
            Function<T, String> nameOf) {
        return all.stream().filter(t -> names.isEmpty() || names.contains(nameOf.apply(t)));
    }

    /**
     * PrivateData={@code kind} (nodes, partitions): when the requester may not see them, answers PERMISSION_DENIED
     * in Slurm's words and returns true.
     */
    private static boolean privateTo(boolean sees, String kind, StreamObserver<?> out) {
        if (sees) {
            return false;
        }
        out.onError(Status.PERMISSION_DENIED.withDescription(kind + ": with PrivateData=" + kind + " only operators and "
                + "administrators see " + kind + ": Access/permission denied").asRuntimeException());
        return true;
    }

    private static boolean noIds(int count, StreamObserver<?> out) {
        if (count == 0) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("job_ids: at least one job id is required").asRuntimeException());
            return true;
        }
        return false;
    }

    static RuntimeException status(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof dev.gantry.scheduler.runtime.QosTable.RefusedChange r) {
            return (r.denied ? Status.PERMISSION_DENIED : Status.INVALID_ARGUMENT).withDescription(r.getMessage())
                    .asRuntimeException();
        }
        if (e instanceof dev.gantry.scheduler.runtime.ManualSuspension.AccessDenied d) {
            return Status.PERMISSION_DENIED.withDescription(d.getMessage()).asRuntimeException();
        }
        if (e instanceof dev.gantry.scheduler.store.DatabaseUnavailable d) {
            return Status.UNAVAILABLE.withDescription(d.getMessage()).asRuntimeException();
        }
        if (e instanceof Controller.RejectedSubmission r) {
            return Status.INVALID_ARGUMENT.withDescription(r.getMessage()).asRuntimeException();
        }
        return Status.INTERNAL.withDescription(String.valueOf(e.getMessage())).withCause(e).asRuntimeException();
    }

    /**
     * scontrol token: a JSON web token for the caller, or for any user when an administrator asks (Slurm answers others
     * "Invalid user id"), valid lifespan_seconds (default 1800, at most a year). Logged: who got a token for whom.
     */
    @Override
    public void createToken(CreateTokenRequest request, StreamObserver<CreateTokenResponse> out) {
        Identity who = Callers.current();
        Requester requester = requester();
        if (tokens.key().isEmpty()) {
            out.onError(Status.FAILED_PRECONDITION.withDescription("this cluster issues no tokens: AuthAltTypes=auth/jwt "
                    + "and AuthAltParameters=jwt_key=… are not configured").asRuntimeException());
            return;
        }
        long lifespan = request.getLifespanSeconds() == 0 ? TokenIssuer.DEFAULT_LIFESPAN.toSeconds() : request.getLifespanSeconds();
        if (lifespan < 1 || lifespan > TokenIssuer.MAX_LIFESPAN.toSeconds()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("lifespan_seconds: must be 1.." + TokenIssuer.MAX_LIFESPAN.toSeconds()
                    + " (a year), got " + request.getLifespanSeconds()).asRuntimeException());
            return;
        }
        String user = request.getUsername().isEmpty() ? who.user() : request.getUsername();
        if (!user.equals(who.user())) {
            if (requester.role() != Role.ADMINISTRATOR) {
                Audit.refused(java.time.Instant.now(), requester, "a token for " + user);
                out.onError(Status.PERMISSION_DENIED.withDescription("username: only an administrator may get a token for "
                        + "another user (" + user + ")").asRuntimeException());
                return;
            }
            if (PosixAccounts.byName(user).isEmpty()) {
                out.onError(Status.INVALID_ARGUMENT.withDescription("username: " + user + " is not a user of this host")
                        .asRuntimeException());
                return;
            }
        }
        TokenIssuer.Issued issued = tokens.issue(user, java.time.Duration.ofSeconds(lifespan));
        Audit.record(java.time.Instant.now(), requester, "got a token for " + user + ", valid until " + issued.expires());
        out.onNext(CreateTokenResponse.newBuilder().setToken(issued.token()).setUsername(user)
                .setExpiresAtSeconds(issued.expires().getEpochSecond()).build());
        out.onCompleted();
    }

    /**
     * The authenticated caller, with the role the config gives them (what a request's own {@code user} field says is
     * ignored). Must be called on the call's own thread, where its context is.
     */
    private Requester requester() {
        Identity who = Callers.current();
        return Requester.of(state.config(), who.user(), who.uid());
    }

    /**
     * The request with its user, uid and gid those of whom the job runs as: the caller, or, for an administrator acting on
     * another's behalf, that user's account on this host ({@link RunAs}).
     */
    private JobRequest ownedByCaller(JobRequest spec) {
        Identity who = Callers.current();
        boolean administrator = Role.of(state.config(), who.user(), (int) who.uid()) == Role.ADMINISTRATOR;
        RunAs.Owner owner = RunAs.resolve(who, spec.user(), Integer.toUnsignedLong(spec.uid()),
                Integer.toUnsignedLong(spec.gid()), administrator, ControllerGrpcService::account,
                uid -> PosixAccounts.byUid(uid).flatMap(a -> account(a.name())));
        if (!owner.user().equals(who.user())) {
            Audit.record(java.time.Instant.now(), requester(), "submits a job as " + owner.user() + " (uid " + owner.uid() + ")");
        }
        return spec.toBuilder().user(owner.user()).uid((int) owner.uid()).gid((int) owner.gid()).build();
    }

    private static Optional<RunAs.Account> account(String name) {
        return PosixAccounts.byName(name).map(a -> new RunAs.Account(a.name(), a.uid(), a.gid()));
    }
}
