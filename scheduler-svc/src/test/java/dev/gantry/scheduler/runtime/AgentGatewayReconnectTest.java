package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

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
 * A restarted agent's registration gives the controller a channel to it that connects at once: the old one waits
 * out gRPC's reconnect backoff and the first launches fail UNAVAILABLE, setting the node (which is back) not responding
 * again (seen in FaultInjectionE2ETest after a SIGKILL of an agent whose restart took 11 s).
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
    void aRegistrationEndsTheReconnectBackoff_soTheNextLaunchReachesTheRestartedAgent() throws Exception {
        int port = freePort();
        String address = "127.0.0.1:" + port;
        AgentGateway gateway = new AgentGateway((node, a) -> NettyChannelBuilder.forTarget(a).usePlaintext().build());
        Server agent = agentOn(port);
        try {
            assertEquals(Status.Code.OK, launch(gateway, address).getCode());
            agent.shutdownNow().awaitTermination(10, TimeUnit.SECONDS); // SIGKILL of the agent
            assertEquals(Status.Code.UNAVAILABLE, launch(gateway, address).getCode(), "the agent is away");
            agent = agentOn(port); // restarted on its port
            assertEquals(Status.Code.UNAVAILABLE, launch(gateway, address).getCode(),
                    "the channel still waits out its backoff: this is what set the node not responding again");

            gateway.registered("n1", address);

            assertEquals(Status.Code.OK, launch(gateway, address).getCode(), "connected at once");
            gateway.registered("n1", address); // a connected channel is kept
            assertEquals(Status.Code.OK, launch(gateway, address).getCode());
        } finally {
            agent.shutdownNow();
            gateway.close();
        }
    }
}
