package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.runtime.TestWait.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * scancel --signal, scontrol suspend and resume of a multi-node job reach the agent of every node of it (each agent
 * signals, stops or continues its own part: batch script, holder, step tasks), not only the batch host's.
 */
class MultiNodeControlTest {

    private static final List<String> NODES = List.of("n1", "n2", "n3");

    final List<FakeAgent> agents = new ArrayList<>();
    final List<Server> servers = new ArrayList<>();
    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                NodeName=n[1-3] CPUs=4 RealMemory=8192
                NodeName=n4 CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=60 State=UP
                """);
        for (String node : List.of("n1", "n2", "n3", "n4")) {
            FakeAgent agent = new FakeAgent();
            Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()).addService(agent).build().start();
            agents.add(agent);
            servers.add(server);
            h.register("127.0.0.1:" + server.getPort(), node);
        }
    }

    @AfterEach
    void stop() {
        h.close();
        servers.forEach(Server::shutdownNow);
    }

    @Test
    void aSignal_reachesEveryNodeOfTheJob_andNoOther_andTheJobGoesOn() {
        long id = startOnThreeNodes();
        List<JobResult> results = h.controller.commands.signal(List.of(id), "alice", 10).join();

        assertTrue(results.get(0).getOk(), results.toString());
        await("every node's agent is told", () -> agents.subList(0, 3).stream().allMatch(a -> a.controls.equals(List.of("signal:" + id + ":10"))));
        assertEquals(List.of(), agents.get(3).controls, "n4 holds nothing of the job");
        assertEquals(JobState.RUNNING, h.job(id).state());
    }

    @Test
    void aSignal_isRefusedForAnotherUsersJob_andForAPendingOne() {
        long id = startOnThreeNodes();
        long pending = h.controller.submit(JobRequests.fromProto(spec(4))).join();

        assertEquals("Access/permission denied", h.controller.commands.signal(List.of(id), "bob", 10).join().get(0).getError());
        assertEquals("Job is pending execution", h.controller.commands.signal(List.of(pending), "alice", 10).join().get(0).getError());
        assertTrue(h.controller.commands.signal(List.of(id), "root", 12).join().get(0).getOk(), "an administrator signals any job");
        await("root's signal reaches the nodes", () -> agents.get(2).controls.equals(List.of("signal:" + id + ":12")));
    }

    @Test
    void suspendAndResume_reachEveryNodeOfTheJob() {
        long id = startOnThreeNodes();
        assertTrue(h.controller.suspension.suspend(List.of(id), "root").join().get(0).getOk());
        await("every node suspends its part", () -> agents.subList(0, 3).stream().allMatch(a -> a.controls.equals(List.of("suspend:" + id))));
        assertTrue(h.controller.suspension.resume(List.of(id), "root").join().get(0).getOk());
        await("every node resumes its part", () -> agents.subList(0, 3).stream()
                .allMatch(a -> a.controls.equals(List.of("suspend:" + id, "resume:" + id))));
        assertEquals(List.of(), agents.get(3).controls);
    }

    private long startOnThreeNodes() {
        long id = h.controller.submit(JobRequests.fromProto(spec(3))).join();
        h.controller.run(() -> h.controller.passes.start(h.controller.state.job(id), dev.gantry.scheduler.lifecycle.Start.Placement.of("debug",
                NODES.stream().map(n -> new NodeShare(n, 4, 100)).toList()))).join();
        await("the launch", () -> agents.get(0).launches.size() == 1);
        return id;
    }

    private static JobSpec spec(int nodes) {
        return JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000).setGid(1000)
                .setWorkDir("/tmp").setTimeLimitSeconds(60).setMinNodes(nodes).build();
    }
}
