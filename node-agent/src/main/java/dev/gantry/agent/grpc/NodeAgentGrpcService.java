package dev.gantry.agent.grpc;

import dev.gantry.agent.job.ControlOutcome;
import dev.gantry.agent.job.JobRun;
import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.agent.process.LaunchPreparation;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.ResumeJobRequest;
import dev.gantry.api.v1.ResumeJobResponse;
import dev.gantry.api.v1.SignalJobRequest;
import dev.gantry.api.v1.SignalJobResponse;
import dev.gantry.api.v1.SuspendJobRequest;
import dev.gantry.api.v1.SuspendJobResponse;
import dev.gantry.api.v1.TerminateJobRequest;
import dev.gantry.api.v1.TerminateJobResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * gantry.v1.NodeAgent over the {@link JobSupervisor}: maps each request to one supervisor call and its outcome
 * to a response or a status (PERMISSION_DENIED for refused credentials, INVALID_ARGUMENT naming the field,
 * FAILED_PRECONDITION when the node cannot run the job as asked, NOT_FOUND for a job not running here).
 */
public final class NodeAgentGrpcService extends NodeAgentGrpc.NodeAgentImplBase {

    private final JobSupervisor supervisor;
    private final String nodeName;
    private final LaunchForwarder forwarder;

    /** An agent that launches single-node jobs only (a request to forward is refused). */
    public NodeAgentGrpcService(JobSupervisor supervisor) {
        this(supervisor, "", null);
    }

    /** @param forwarder sends multi-node launches on to the nodes below this one ({@code nodeName}) */
    public NodeAgentGrpcService(JobSupervisor supervisor, String nodeName, LaunchForwarder forwarder) {
        this.supervisor = supervisor;
        this.nodeName = nodeName;
        this.forwarder = forwarder;
    }

    /**
     * Launches this node's part and, for a multi-node job, forwards the launch to this node's subtree. A node other
     * than the batch host launches its part while the forwards are under way; the batch host prepares its part
     * meanwhile (checks, cgroup, files, the process waiting for "go": {@link JobSupervisor#prepare}) but starts the
     * batch script only once every other node holds its part (as Slurm starts a batch script after the prolog ran on
     * every node, PrologFlags=Alloc), so a job whose launch did not reach a node never runs. Answers once both are
     * settled: the first failure below (then the batch host abandons its prepared part), else this node's refusal,
     * else every node launched.
     */
    @Override
    public void launchJob(LaunchJobRequest request, StreamObserver<LaunchJobResponse> response) {
        boolean batchHost = request.getBatchHost().isEmpty() || request.getBatchHost().equals(nodeName);
        if (request.getForwardToCount() == 0) {
            answer(supervisor.launch(request, batchHost), List.of(), response);
            return;
        }
        if (forwarder == null) {
            response.onError(Status.FAILED_PRECONDITION.withDescription("this agent does not forward launches").asRuntimeException());
            return;
        }
        CompletableFuture<List<String>> below = forwarder.forward(request);
        if (!batchHost) {
            LaunchOutcome outcome = supervisor.launch(request, false);
            below.whenComplete((launched, error) -> {
                if (error != null && outcome instanceof LaunchOutcome.Started) {
                    response.onError(unwrap(error));
                } else {
                    answer(outcome, launched == null ? List.of() : launched, response);
                }
            });
            return;
        }
        LaunchPreparation mine = supervisor.prepare(request, true);
        below.whenComplete((launched, error) -> {
            if (error != null) {
                mine.abandon();
                response.onError(unwrap(error));
            } else {
                answer(mine.go(), launched, response);
            }
        });
    }

    private void answer(LaunchOutcome outcome, List<String> launchedBelow, StreamObserver<LaunchJobResponse> response) {
        switch (outcome) {
            case LaunchOutcome.Started s -> {
                LaunchJobResponse.Builder ok = LaunchJobResponse.newBuilder().setPid(s.pid());
                if (!nodeName.isEmpty()) {
                    ok.addLaunchedNodes(nodeName).addAllLaunchedNodes(launchedBelow);
                }
                response.onNext(ok.build());
                response.onCompleted();
            }
            case LaunchOutcome.Refused r -> response.onError(Status.PERMISSION_DENIED.withDescription(r.reason()).asRuntimeException());
            case LaunchOutcome.InvalidRequest i -> response.onError(Status.INVALID_ARGUMENT.withDescription(i.message()).asRuntimeException());
            case LaunchOutcome.Unrunnable u -> response.onError(Status.FAILED_PRECONDITION.withDescription(u.message()).asRuntimeException());
            case LaunchOutcome.Failed f -> response.onError(Status.INTERNAL.withDescription(f.message()).asRuntimeException());
        }
    }

    private static StatusRuntimeException unwrap(Throwable error) {
        Throwable cause = error instanceof CompletionException c ? c.getCause() : error;
        return cause instanceof StatusRuntimeException e ? e : Status.fromThrowable(cause).asRuntimeException();
    }

    @Override
    public void signalJob(SignalJobRequest request, StreamObserver<SignalJobResponse> response) {
        int run = request.hasRestartCount() ? request.getRestartCount() : JobRun.UNKNOWN;
        answer(supervisor.signal(request.getJobId(), run, request.getSignal()), SignalJobResponse::getDefaultInstance, response);
    }

    @Override
    public void suspendJob(SuspendJobRequest request, StreamObserver<SuspendJobResponse> response) {
        answer(supervisor.suspend(request.getJobId(), request.getRestartCount()), SuspendJobResponse::getDefaultInstance, response);
    }

    @Override
    public void resumeJob(ResumeJobRequest request, StreamObserver<ResumeJobResponse> response) {
        answer(supervisor.resume(request.getJobId(), request.getRestartCount()), ResumeJobResponse::getDefaultInstance, response);
    }

    @Override
    public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> response) {
        if (request.getKillWaitSeconds() < 0) {
            response.onError(Status.INVALID_ARGUMENT.withDescription("kill_wait_seconds must not be negative").asRuntimeException());
            return;
        }
        int run = request.hasRestartCount() ? request.getRestartCount() : JobRun.UNKNOWN;
        boolean wasRunning = supervisor.terminate(request.getJobId(), run, Duration.ofSeconds(request.getKillWaitSeconds()),
                request.getReason());
        response.onNext(TerminateJobResponse.newBuilder().setWasRunning(wasRunning).build());
        response.onCompleted();
    }

    private static <T> void answer(ControlOutcome outcome, Supplier<T> ok, StreamObserver<T> response) {
        switch (outcome) {
            case ControlOutcome.Done d -> {
                response.onNext(ok.get());
                response.onCompleted();
            }
            case ControlOutcome.NoSuchJob n -> response.onError(Status.NOT_FOUND.withDescription("job " + n.jobId() + " is not running on this node").asRuntimeException());
            case ControlOutcome.InvalidRequest i -> response.onError(Status.INVALID_ARGUMENT.withDescription(i.message()).asRuntimeException());
            case ControlOutcome.WrongState w -> response.onError(Status.FAILED_PRECONDITION.withDescription(w.message()).asRuntimeException());
        }
    }
}
