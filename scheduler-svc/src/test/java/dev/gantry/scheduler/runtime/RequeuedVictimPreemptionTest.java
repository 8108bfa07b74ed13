package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A REQUEUE victim that starts again before its preemptor fits (another partition's pass may start it, the main pass
 * blocking per partition) is a new run: the preemptor's next preemption pass preempts it again instead of waiting for
 * the old run's end, which had already come (before the fix the preemptor waited out the new run's whole time limit).
 */
class RequeuedVictimPreemptionTest {

    static final String CONFIG = """
            PreemptType=preempt/partition_prio
            PreemptMode=REQUEUE
            NodeName=n1 CPUs=2 RealMemory=1000
            PartitionName=low Nodes=n1 Default=YES PriorityTier=1 MaxTime=60
            PartitionName=hi Nodes=n1 PriorityTier=2 MaxTime=60
            """;

    final SuspendPreemptionGresTest.OverTheVictim select = new SuspendPreemptionGresTest.OverTheVictim();
    ControllerHarness h;
    Server agentServer;
    Server selectServer;
    ManagedChannel selectChannel;

    @BeforeEach
    void start() throws Exception {
        agentServer = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new SuspendPreemptionGresTest.AcceptingAgent()).build().start();
        String name = InProcessServerBuilder.generateName();
        selectServer = InProcessServerBuilder.forName(name).directExecutor().addService(select).build().start();
        selectChannel = InProcessChannelBuilder.forName(name).directExecutor().build();
        h = new ControllerHarness(CONFIG);
        String address = "127.0.0.1:" + agentServer.getPort();
        h.controller.call(() -> {
            h.controller.state.putNode(h.controller.state.node("n1").registeredAt(address, h.now.get(), h.now.get(),
                    false, null));
            return null;
        }).join();
    }

    @AfterEach
    void stop() {
        h.close();
        selectChannel.shutdownNow();
        selectServer.shutdownNow();
        agentServer.shutdownNow();
    }

    long submit(String partition) {
        return h.controller.submit(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).addPartitions(partition).setNtasks(2)
                .setRequeue(true).build()).join();
    }

    /** Puts {@code id} running on n1's two CPUs, started at {@code start}, as a pass starting it would. */
    void running(long id, Instant start) {
        h.controller.call(() -> {
            h.controller.state.put(h.controller.state.job(id).toBuilder().state(JobState.RUNNING, start).completing(false)
                    .allocation(List.of(new NodeShare("n1", 2, 0, List.of(), List.of()))).startTime(start).build());
            return null;
        }).join();
    }

    @Test
    void aVictimRequeuedAndStartedAgain_isPreemptedAgain_notWaitedFor() throws Exception {
        long victim = submit("low");
        running(victim, h.now.get());
        select.victim = victim;
        long hi = submit("hi");
        PreemptionPass pass = new PreemptionPass(h.controller, new SelectClient(selectChannel), null);

        pass.run(List.of(h.job(hi)));
        JobRecord first = h.job(victim);
        assertEquals(JobState.PENDING, first.state());
        assertTrue(first.completing(), "the first run is being killed");

        // the first run ended, and a pass started the requeued victim again before the preemptor fitted
        running(victim, h.now.get().plusSeconds(5));
        pass.run(List.of(h.job(hi)));

        JobRecord second = h.job(victim);
        assertEquals(JobState.PENDING, second.state(), "the new run is preempted too: " + second);
        assertTrue(second.completing());
    }

    @Test
    void aVictimStillEnding_isNotPreemptedTwice() throws Exception {
        long victim = submit("low");
        running(victim, h.now.get());
        select.victim = victim;
        long hi = submit("hi");
        PreemptionPass pass = new PreemptionPass(h.controller, new SelectClient(selectChannel), null);
        pass.run(List.of(h.job(hi)));
        JobRecord first = h.job(victim);

        pass.run(List.of(h.job(hi)));

        assertEquals(first, h.job(victim), "a second pass leaves the run being killed alone");
    }
}
