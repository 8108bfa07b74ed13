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
import dev.gantry.scheduler.lifecycle.JobExit;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Calls node agents, one long-lived channel per agent (its node and address: a node that registers from a new address
 * gets a new channel). Calls are asynchronous. Thread-safe.
 */
public final class AgentGateway implements AutoCloseable {

    /** Opens a channel to the agent of {@code node} at {@code address} (production: mutual TLS, the server must be that node's agent). */
    public interface Connector {
        ManagedChannel open(String node, String address);
    }

    private static final long DEADLINE_SECONDS = 30;
    private final Connector connector;
    private final ConcurrentHashMap<Agent, ManagedChannel> channels = new ConcurrentHashMap<>();

    private record Agent(String node, String address) {}

    private final io.grpc.ClientInterceptor[] interceptors;

    /** @param interceptors applied to every call (the controller's fencing number, {@code common.failover.Fencing}) */
    public AgentGateway(Connector connector, io.grpc.ClientInterceptor... interceptors) {
        this.connector = connector;
        this.interceptors = interceptors;
    }

    private NodeAgentGrpc.NodeAgentStub stub(String node, String address) {
        ManagedChannel ch = channels.computeIfAbsent(new Agent(node, address), a -> connector.open(a.node(), a.address()));
        return NodeAgentGrpc.newStub(ch).withInterceptors(interceptors).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * The agent of {@code node} has just registered from {@code address}: a channel to it that is not connected (its
     * agent was away: killed, restarted; the channel waits out gRPC's reconnect backoff, failing calls at once) is
     * replaced by a fresh one, whose first call connects and waits for the connection. Otherwise the next launch would
     * fail UNAVAILABLE and set the node, which is back, not responding again. A connected channel is kept; calls under
     * way on a replaced one finish there.
     */
    public void registered(String node, String address) {
        Agent agent = new Agent(node, address);
        ManagedChannel ch = channels.get(agent);
        if (ch != null && ch.getState(false) != io.grpc.ConnectivityState.READY && channels.remove(agent, ch)) {
            ch.shutdown();
        }
    }

    public CompletableFuture<LaunchJobResponse> launch(String node, String address, LaunchJobRequest request) {
        CompletableFuture<LaunchJobResponse> f = new CompletableFuture<>();
        stub(node, address).launchJob(request, observer(f));
        return f;
    }

    /**
     * TerminateJob for run {@code run} of the job (the agent leaves another run alone and answers was_running=false);
     * {@link JobExit#UNNAMED_RUN}: whatever run of it is there.
     */
    public CompletableFuture<TerminateJobResponse> terminate(String node, String address, long jobId, int run,
            long killWaitSeconds, String reason) {
        CompletableFuture<TerminateJobResponse> f = new CompletableFuture<>();
        TerminateJobRequest.Builder b = TerminateJobRequest.newBuilder().setJobId(jobId).setKillWaitSeconds(killWaitSeconds)
                .setReason(reason);
        if (run != JobExit.UNNAMED_RUN) {
            b.setRestartCount(run);
        }
        stub(node, address).terminateJob(b.build(), observer(f));
        return f;
    }

    /** SignalJob for run {@code run} of the job (the agent ignores it for another run). */
    public CompletableFuture<SignalJobResponse> signal(String node, String address, long jobId, int run, int signal) {
        CompletableFuture<SignalJobResponse> f = new CompletableFuture<>();
        stub(node, address).signalJob(SignalJobRequest.newBuilder().setJobId(jobId).setSignal(signal).setRestartCount(run)
                .build(), observer(f));
        return f;
    }

    /** SuspendJob for run {@code restartCount} of the job. */
    public CompletableFuture<SuspendJobResponse> suspend(String node, String address, long jobId, int restartCount) {
        CompletableFuture<SuspendJobResponse> f = new CompletableFuture<>();
        stub(node, address).suspendJob(SuspendJobRequest.newBuilder().setJobId(jobId).setRestartCount(restartCount).build(), observer(f));
        return f;
    }

    /** ResumeJob for run {@code restartCount} of the job. */
    public CompletableFuture<ResumeJobResponse> resume(String node, String address, long jobId, int restartCount) {
        CompletableFuture<ResumeJobResponse> f = new CompletableFuture<>();
        stub(node, address).resumeJob(ResumeJobRequest.newBuilder().setJobId(jobId).setRestartCount(restartCount).build(), observer(f));
        return f;
    }

    private static <T> StreamObserver<T> observer(CompletableFuture<T> f) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                f.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                f.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                // onNext already completed the future
            }
        };
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
