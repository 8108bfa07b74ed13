package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.runtime.TestWait.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.CreateStepRequest;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.Step;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Steps are durable: a controller restarted on the same store lists the running jobs' steps again and never gives a
 * step id of a job twice; a job's steps leave the store when it stops running.
 */
class JobStepsRestartTest {

    private static final String CONFIG = """
            NodeName=n[1-2] CPUs=4 RealMemory=8192
            PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
            """;

    final FakeAgent agent = new FakeAgent();
    Server server;
    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create()).addService(agent).build().start();
        h = new ControllerHarness(CONFIG);
        register(h);
    }

    @AfterEach
    void stop() {
        h.close();
        server.shutdownNow();
    }

    @Test
    void runningJobsSteps_surviveAControllerRestart_andNoStepIdIsGivenTwice() throws Exception {
        long id = startOnTwoNodes();
        JobSteps steps = h.controller.steps(h.store.loadSteps());
        assertEquals("0", create(steps, id, "hostname"));
        assertEquals("1", create(steps, id, "sleep"));
        assertTrue(h.store.steps.containsKey(id + ".1"), "a step is committed before srun gets its id");
        assertEquals("2", create(steps, id, "true"));
        steps.complete(id, "2", 0, "alice").join();

        h.close(); // the controller goes away; the store keeps what was committed
        h = new ControllerHarness(CONFIG, h.store, h.controller.stateStore);
        JobSteps restarted = h.controller.steps(h.store.loadSteps());
        var early = assertThrows(java.util.concurrent.CompletionException.class, () -> create(restarted, id, "hostname"));
        assertEquals(Status.Code.FAILED_PRECONDITION, Status.fromThrowable(early.getCause()).getCode(),
                "no agent address to give srun before the nodes register again");
        register(h);

        List<Step> listed = restarted.list(List.of(id)).join();
        assertEquals(List.of("batch", "0", "1"), listed.stream().map(Step::getStepId).toList());
        assertEquals(List.of("hostname", "sleep"), listed.subList(1, 3).stream().map(Step::getName).toList());
        assertEquals(List.of("n1", "n2"), listed.get(1).getNodesList());
        assertEquals("3", create(restarted, id, "hostname"), "2 ended before the restart and is not given again; the refused "
                + "attempt used no id");
    }

    @Test
    void theStepsOfAJobThatEnded_leaveTheStore_andARestartListsNone() throws Exception {
        long id = startOnTwoNodes();
        JobSteps steps = h.controller.steps(h.store.loadSteps());
        create(steps, id, "sleep");
        h.controller.lifecycle.reportExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode("n1").build()).join();
        assertTrue(h.job(id).state() == JobState.COMPLETED);

        h.controller.run(steps::sweep).join();
        await("the job's steps and numbering leave the store", () -> {
            synchronized (h.store) {
                return h.store.steps.isEmpty() && h.store.nextStepIds.isEmpty();
            }
        });
        h.close();
        h = new ControllerHarness(CONFIG, h.store, h.controller.stateStore);
        assertEquals(List.of(), h.controller.steps(h.store.loadSteps()).list(List.of()).join());
    }

    @Test
    void storedStepsOfAJobThatEndedWhileTheControllerWasAway_areDroppedAtStart() throws Exception {
        long id = startOnTwoNodes();
        create(h.controller.steps(h.store.loadSteps()), id, "sleep");
        h.controller.lifecycle.reportExit(ReportJobExitRequest.newBuilder().setJobId(id).setNode("n1").build()).join();
        h.close(); // no sweep ran: the step is still stored

        h = new ControllerHarness(CONFIG, h.store, h.controller.stateStore);
        JobSteps restarted = h.controller.steps(h.store.loadSteps());
        assertEquals(List.of(), restarted.list(List.of(id)).join());
        await("the ended job's step leaves the store", () -> {
            synchronized (h.store) {
                return h.store.steps.isEmpty();
            }
        });
    }

    @Test
    void aStepsRunTime_leavesOutTheTimeItsJobWasSuspended_alsoAfterARestart() throws Exception {
        long id = startOnTwoNodes();
        JobSteps steps = h.controller.steps(h.store.loadSteps());
        advance(10);
        create(steps, id, "sleep");
        advance(5);
        assertEquals(List.of(15L, 5L), timesUsed(steps, id));
        h.slice(List.of(id), List.of());
        advance(100);
        assertEquals(List.of(15L, 5L), timesUsed(steps, id), "suspended: neither the job nor its step runs");
        h.slice(List.of(), List.of(id));
        advance(3);
        assertEquals(List.of(18L, 8L), timesUsed(steps, id));

        Instant now = h.now.get();
        h.close();
        h = new ControllerHarness(CONFIG, h.store, h.controller.stateStore);
        h.now.set(now);
        assertEquals(List.of(18L, 8L), timesUsed(h.controller.steps(h.store.loadSteps()), id));
    }

    private void advance(long seconds) {
        h.now.set(h.now.get().plusSeconds(seconds));
    }

    private static List<Long> timesUsed(JobSteps steps, long job) {
        return steps.list(List.of(job)).join().stream().map(Step::getTimeUsedSeconds).toList();
    }

    private long startOnTwoNodes() {
        long id = h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).setMinNodes(2).build())).join();
        h.controller.run(() -> h.controller.passes.start(h.controller.state.job(id), dev.gantry.scheduler.lifecycle.Start.Placement.of("debug",
                List.of(new NodeShare("n1", 2, 100), new NodeShare("n2", 2, 100))))).join();
        return id;
    }

    private static String create(JobSteps steps, long job, String command) {
        return steps.create(CreateStepRequest.newBuilder().setJobId(job).setUser("alice").addArgv(command).build())
                .join().getStep().getStepId();
    }

    private void register(ControllerHarness harness) {
        harness.register("127.0.0.1:" + server.getPort(), "n1", "n2");
    }
}
