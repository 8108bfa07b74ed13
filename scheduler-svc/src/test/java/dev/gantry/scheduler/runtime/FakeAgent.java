package dev.gantry.scheduler.runtime;

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
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node agent that records every call and answers it, for any number of nodes (they all register its address): a
 * launch is accepted unless {@link #refusal} is set, a terminate answers {@link #wasRunning}. It never reports an exit
 * by itself; a test does that through the controller's exit-report path. Thread-safe.
 */
final class FakeAgent extends NodeAgentGrpc.NodeAgentImplBase {
    final List<LaunchJobRequest> launches = new CopyOnWriteArrayList<>();
    final List<TerminateJobRequest> terminates = new CopyOnWriteArrayList<>();
    /** Signal, suspend and resume calls received, as "call:jobId[:signal]". */
    final List<String> controls = new CopyOnWriteArrayList<>();
    /** Signal calls received, as sent. */
    final List<SignalJobRequest> signals = new CopyOnWriteArrayList<>();
    /** What launches fail with; null: they are accepted. */
    volatile Status refusal;
    /** The node a refused launch names in its trailer (an agent of the fan-out tree that could not reach it). */
    volatile String failedNode;
    /**
     * What terminates answer: whether the job was running on the node. True: its processes are being killed and the
     * job stays completing until its exit is reported; false: nothing of it is there, and the controller releases it.
     */
    volatile boolean wasRunning;

    @Override
    public void launchJob(LaunchJobRequest request, StreamObserver<LaunchJobResponse> out) {
        launches.add(request);
        if (refusal != null) {
            Metadata trailers = new Metadata();
            if (failedNode != null) {
                trailers.put(JobLauncher.FAILED_NODE, failedNode);
            }
            out.onError(refusal.asRuntimeException(trailers));
            return;
        }
        out.onNext(LaunchJobResponse.newBuilder().setPid(100).build());
        out.onCompleted();
    }

    @Override
    public void signalJob(SignalJobRequest request, StreamObserver<SignalJobResponse> out) {
        controls.add("signal:" + request.getJobId() + ":" + request.getSignal());
        signals.add(request);
        out.onNext(SignalJobResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public void suspendJob(SuspendJobRequest request, StreamObserver<SuspendJobResponse> out) {
        controls.add("suspend:" + request.getJobId());
        out.onNext(SuspendJobResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public void resumeJob(ResumeJobRequest request, StreamObserver<ResumeJobResponse> out) {
        controls.add("resume:" + request.getJobId());
        out.onNext(ResumeJobResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> out) {
        terminates.add(request);
        out.onNext(TerminateJobResponse.newBuilder().setWasRunning(wasRunning).build());
        out.onCompleted();
    }
}
