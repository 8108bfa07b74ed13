package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.NodeAgentGrpc;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A restarted agent's registration gives the controller a fresh channel to it when the old one is not connected: the
 * old one may be waiting out gRPC's reconnect backoff, failing launches at once with UNAVAILABLE and setting the node
 * (which is back) not responding again (seen in FaultInjectionE2ETest after a SIGKILL of an agent whose restart took
 * 11 s). A connected channel is kept.
 */
class AgentGatewayReconnectTest {

    private static final NodeAgentGrpc.NodeAgentImplBase AGENT = new NodeAgentGrpc.NodeAgentImplBase() {
        @Override
        public void launchJob(LaunchJobRequest request, StreamObserver<LaunchJobResponse> answer) {
            answer.onNext(LaunchJobResponse.getDefaultInstance());
            answer.onCompleted();
        }
    };

    private static Server agentOn(int port) throws Exception {
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port)).addService(AGENT).build().start();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static Status launch(AgentGateway gateway, String address) {
        try {
            assertNotNull(gateway.launch("n1", address, LaunchJobRequest.getDefaultInstance()).get(20, TimeUnit.SECONDS));
            return Status.OK;
        } catch (Exception e) {
            Throwable c = e instanceof java.util.concurrent.ExecutionException || e instanceof CompletionException ? e.getCause() : e;
            return c instanceof StatusRuntimeException sre ? sre.getStatus() : Status.UNKNOWN.withCause(c);
        }
    }

    @Test
    void aRegistrationReplacesAChannelThatIsNotConnected_soTheNextLaunchReachesTheRestartedAgent() throws Exception {
        int port = freePort();
        String address = "127.0.0.1:" + port;
        java.util.List<io.grpc.ManagedChannel> opened = new java.util.concurrent.CopyOnWriteArrayList<>();
        AgentGateway gateway = new AgentGateway((node, a) -> {
            io.grpc.ManagedChannel ch = NettyChannelBuilder.forTarget(a).usePlaintext().build();
            opened.add(ch);
            return ch;
        });
        Server agent = agentOn(port);
        try {
            assertEquals(Status.Code.OK, launch(gateway, address).getCode());
            gateway.registered("n1", address); // connected: kept
            assertEquals(1, opened.size(), "a connected channel is kept");

            agent.shutdownNow().awaitTermination(10, TimeUnit.SECONDS); // SIGKILL of the agent
            assertEquals(Status.Code.UNAVAILABLE, launch(gateway, address).getCode(), "the agent is away");
            io.grpc.ManagedChannel old = opened.get(0);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (old.getState(false) == io.grpc.ConnectivityState.READY && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertNotEquals(io.grpc.ConnectivityState.READY, old.getState(false));

            // the registration is judged on the channel as it is then (the agent's port not open yet: no reconnect can
            // have made it READY meanwhile)
            gateway.registered("n1", address);

            assertTrue(old.isShutdown(), "the channel that was not connected is dropped");
            agent = agentOn(port); // the restarted agent's server
            assertEquals(Status.Code.OK, launch(gateway, address).getCode(), "the next launch connects and reaches the agent");
            assertEquals(2, opened.size(), "on a new channel");
        } finally {
            agent.shutdownNow();
            gateway.close();
        }
    }
}
