package dev.gantry.agent.grpc;

import dev.gantry.agent.job.FanoutTree;
import dev.gantry.api.v1.FanoutTarget;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.NodeAgentGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends a multi-node launch on to the nodes below this agent in the launch tree ({@link FanoutTree}): each
 * branch's head gets the request with its own share of the job (CPUs, memory, cores) and the rest of its branch
 * to reach in turn. The forwards go out in parallel; each inherits the deadline of the call that brought the
 * request here (gRPC propagates it), so a slow subtree fails the launch instead of hanging it.
 *
 * <p>A failed forward is reported with the node it concerns, once: the failing call carries it in the
 * {@link #FAILED_NODE} trailer, and a forward that fails without one (the head itself refused, or could not be
 * reached) gets it here, with "node NAME: " before its description. A head that cannot be reached (UNAVAILABLE,
 * DEADLINE_EXCEEDED, no address) becomes ABORTED, which the controller turns into NODE_FAIL; other refusals keep
 * their code.
 *
 * <p>Thread-safe: one long-lived channel per peer (its node and address), created on first use; in production a
 * mutual-TLS channel to the peer's internal port that accepts only that node's agent.
 */
public final class LaunchForwarder implements AutoCloseable {

    /** The trailer naming the node whose part of a launch failed. */
    public static final Metadata.Key<String> FAILED_NODE = Metadata.Key.of("gantry-failed-node", Metadata.ASCII_STRING_MARSHALLER);

    /** Counts forwards by outcome (the metrics layer); must not block. */
    public interface Telemetry {
        void forwarded(boolean ok);

        Telemetry NONE = ok -> {};
    }

    /** Opens a channel to the agent of {@code node} at {@code address} (host:port in production). */
    public interface Connector {
        ManagedChannel open(String node, String address);
    }

    private record Peer(String node, String address) {}

    private final Connector connect;
    private final Telemetry telemetry;
    private final ConcurrentHashMap<Peer, ManagedChannel> channels = new ConcurrentHashMap<>();

    /** @param connect opens a channel to a peer agent */
    public LaunchForwarder(Connector connect, Telemetry telemetry) {
        this.connect = connect;
        this.telemetry = telemetry;
    }

    /**
     * Forwards {@code request} to the heads of its {@code forward_to} list's branches. Completes with every node
     * below that launched, in no particular order, or exceptionally with the first failure (a
     * {@link StatusRuntimeException} whose trailers name the failed node) once every forward has answered.
     */
    public CompletableFuture<List<String>> forward(LaunchJobRequest request) {
        List<FanoutTree.Branch<FanoutTarget>> branches = FanoutTree.branches(request.getForwardToList(), request.getTreeWidth() <= 0 ? 50 : request.getTreeWidth());
        List<CompletableFuture<List<String>>> calls = new ArrayList<>(branches.size());
        for (FanoutTree.Branch<FanoutTarget> branch : branches) {
            calls.add(send(branch, request));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).handle((ignored, error) -> {
            List<String> launched = new ArrayList<>();
            StatusRuntimeException first = null;
            for (CompletableFuture<List<String>> call : calls) {
                try {
                    launched.addAll(call.join());
                } catch (java.util.concurrent.CompletionException e) {
                    if (first == null) {
                        first = (StatusRuntimeException) e.getCause();
                    }
                }
            }
            if (first != null) {
                throw first;
            }
            return launched;
        });
    }

    private CompletableFuture<List<String>> send(FanoutTree.Branch<FanoutTarget> branch, LaunchJobRequest request) {
        FanoutTarget head = branch.head();
        CompletableFuture<List<String>> result = new CompletableFuture<>();
        if (head.getAddress().isEmpty()) {
            telemetry.forwarded(false);
            result.completeExceptionally(failure(head.getNode(), Status.UNAVAILABLE.withDescription("its agent's address is unknown"), null));
            return result;
        }
        LaunchJobRequest forwarded = request.toBuilder()
                .setCpusOnNode(head.getCpusOnNode())
                .setMemoryMb(head.getMemoryMb())
                .clearCoreIds().addAllCoreIds(head.getCoreIdsList())
                .clearForwardTo().addAllForwardTo(branch.below())
                .build();
        ManagedChannel channel = channels.computeIfAbsent(new Peer(head.getNode(), head.getAddress()), p -> connect.open(p.node(), p.address()));
        NodeAgentGrpc.newStub(channel).launchJob(forwarded, new StreamObserver<>() {
            @Override
            public void onNext(LaunchJobResponse response) {
                telemetry.forwarded(true);
                List<String> nodes = response.getLaunchedNodesList().isEmpty() ? List.of(head.getNode()) : response.getLaunchedNodesList();
                result.complete(nodes);
            }

            @Override
            public void onError(Throwable t) {
                telemetry.forwarded(false);
                Status status = Status.fromThrowable(t);
                Metadata trailers = Status.trailersFromThrowable(t);
                result.completeExceptionally(failure(head.getNode(), status, trailers));
            }

            @Override
            public void onCompleted() {
                // onNext completed the result
            }
        });
        return result;
    }

    /** The failure as this agent reports it upwards: named after the node it concerns, unreachable as ABORTED. */
    static StatusRuntimeException failure(String head, Status status, Metadata trailers) {
        if (trailers != null && trailers.containsKey(FAILED_NODE)) {
            return status.asRuntimeException(trailers); // a node further down; already named
        }
        Metadata named = new Metadata();
        named.put(FAILED_NODE, head);
        String why = status.getDescription() == null ? status.getCode().name() : status.getDescription();
        Status reported = switch (status.getCode()) {
            case UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED -> Status.ABORTED.withDescription("node " + head + ": agent unreachable: " + why);
            default -> status.withDescription("node " + head + ": " + why);
        };
        return reported.asRuntimeException(named);
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
