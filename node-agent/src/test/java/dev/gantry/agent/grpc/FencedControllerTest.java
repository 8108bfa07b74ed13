package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.job.JobRun;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.TerminateJobRequest;
import dev.gantry.common.failover.Fencing;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A deposed controller (a lower fencing number than one the agent has seen) can neither launch nor stop a job: the
 * NodeAgent service behind the guard, as the agent's internal server serves it (AgentFactory.serveInternal).
 */
class FencedControllerTest extends OnAgentRig {

    private final AtomicInteger refused = new AtomicInteger();
    private Server server;
    private ManagedChannel channel;

    @BeforeEach
    void serveBehindTheGuard() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .addService(ServerInterceptors.intercept(new NodeAgentGrpcService(rig.supervisor), new Fencing.Guard(refused::incrementAndGet)))
                .build().start();
        channel = InProcessChannelBuilder.forName(name).build();
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    private NodeAgentGrpc.NodeAgentBlockingStub controller(long fencing) {
        return NodeAgentGrpc.newBlockingStub(channel).withInterceptors(Fencing.stamp(() -> fencing));
    }

    @Test
    void afterANewerControllerCalled_theDeposedOnesLaunchAndTerminateAreRefused_andChangeNothing() {
        controller(4).launchJob(rig.signed(rig.request(70, "#!/bin/bash\necho ready\nsleep 600\n").build()));
        rig.awaitOutput(70, "ready");

        StatusRuntimeException launch = assertThrows(StatusRuntimeException.class,
                () -> controller(3).launchJob(rig.signed(rig.request(71, "#!/bin/bash\nsleep 600\n").build())));
        assertEquals(Status.Code.FAILED_PRECONDITION, launch.getStatus().getCode());
        assertEquals("fenced: controller fencing 3 < 4 (a newer controller is active)", launch.getStatus().getDescription());
        StatusRuntimeException kill = assertThrows(StatusRuntimeException.class, () -> controller(3).terminateJob(
                TerminateJobRequest.newBuilder().setJobId(70).setKillWaitSeconds(1).setReason("deposed").build()));
        assertEquals(Status.Code.FAILED_PRECONDITION, kill.getStatus().getCode());

        assertEquals(java.util.List.of(70L), rig.supervisor.runningJobs().stream().map(JobRun::jobId).toList(),
                "job 70 still runs and job 71 never started");
        assertEquals(2, refused.get());

        controller(4).terminateJob(TerminateJobRequest.newBuilder().setJobId(70).setKillWaitSeconds(1).setReason("cancelled").build());
        assertEquals("cancelled", rig.awaitExit(70).getReason(), "the current controller still acts");
        assertTrue(rig.hub.exitOf(71).isEmpty());
    }
}
