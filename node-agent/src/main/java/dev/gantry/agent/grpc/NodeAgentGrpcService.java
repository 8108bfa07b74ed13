package dev.gantry.agent.grpc;

import dev.gantry.agent.job.ControlOutcome;
import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.agent.job.LaunchOutcome;
import dev.gantry.agent.process.JobSupervisor;
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
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * gantry.v1.NodeAgent over the {@link JobSupervisor}: maps each request to one supervisor call and its outcome
 * to a response or a status (PERMISSION_DENIED for refused credentials, INVALID_ARGUMENT naming the field,
 * FAILED_PRECONDITION when the node cannot run the job as asked, NOT_FOUND for a job not running here).
 */
public final class NodeAgentGrpcService extends NodeAgentGrpc.NodeAgentImplBase {

    private final JobSupervisor supervisor;

    public NodeAgentGrpcService(JobSupervisor supervisor) {
        this.supervisor = supervisor;
    }

    @Override
    public void launchJob(LaunchJobRequest request, StreamObserver<LaunchJobResponse> response) {
        LaunchOutcome outcome = supervisor.launch(toOrder(request), request.getCredential());
        switch (outcome) {
            case LaunchOutcome.Started s -> {
                response.onNext(LaunchJobResponse.newBuilder().setPid(s.pid()).build());
                response.onCompleted();
            }
            case LaunchOutcome.Refused r -> response.onError(Status.PERMISSION_DENIED.withDescription(r.reason()).asRuntimeException());
            case LaunchOutcome.InvalidRequest i -> response.onError(Status.INVALID_ARGUMENT.withDescription(i.message()).asRuntimeException());
            case LaunchOutcome.Unrunnable u -> response.onError(Status.FAILED_PRECONDITION.withDescription(u.message()).asRuntimeException());
            case LaunchOutcome.Failed f -> response.onError(Status.INTERNAL.withDescription(f.message()).asRuntimeException());
        }
    }

    @Override
    public void signalJob(SignalJobRequest request, StreamObserver<SignalJobResponse> response) {
        answer(supervisor.signal(request.getJobId(), request.getSignal()), SignalJobResponse::getDefaultInstance, response);
    }

    @Override
    public void suspendJob(SuspendJobRequest request, StreamObserver<SuspendJobResponse> response) {
        answer(supervisor.suspend(request.getJobId()), SuspendJobResponse::getDefaultInstance, response);
    }

    @Override
    public void resumeJob(ResumeJobRequest request, StreamObserver<ResumeJobResponse> response) {
        answer(supervisor.resume(request.getJobId()), ResumeJobResponse::getDefaultInstance, response);
    }

    @Override
    public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> response) {
        if (request.getKillWaitSeconds() < 0) {
            response.onError(Status.INVALID_ARGUMENT.withDescription("kill_wait_seconds must not be negative").asRuntimeException());
            return;
        }
        boolean wasRunning = supervisor.terminate(request.getJobId(), Duration.ofSeconds(request.getKillWaitSeconds()), request.getReason());
        response.onNext(TerminateJobResponse.newBuilder().setWasRunning(wasRunning).build());
        response.onCompleted();
    }

    /** The request as a launch order; {@code array} unset means the job is not an array task. */
    static LaunchOrder toOrder(LaunchJobRequest r) {
        Optional<LaunchOrder.ArrayTask> array = r.hasArray()
                ? Optional.of(new LaunchOrder.ArrayTask(r.getArray().getArrayJobId(), r.getArray().getTaskId(),
                        r.getArray().getTaskCount(), r.getArray().getTaskMin(), r.getArray().getTaskMax(),
                        r.getArray().getTaskStep()))
                : Optional.empty();
        return new LaunchOrder(r.getJobId(), r.getJobName(), r.getScript(), r.getArgvList(), r.getWorkDir(),
                r.getStdoutPath(), r.getStderrPath(), r.getEnvironmentMap(), r.getPartition(), r.getNumTasks(),
                r.getCpusOnNode(), r.getMemoryMb(), r.getSubmitDir(), r.getSubmitHost(), r.getTimeLimitSeconds(),
                r.getCoreIdsList(), array, r.getAccount(), r.getQos(), r.getRestartCount());
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
