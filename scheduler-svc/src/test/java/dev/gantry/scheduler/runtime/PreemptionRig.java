package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import io.grpc.BindableService;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import java.util.List;

/**
 * A real controller (over {@link ControllerHarness}) with node n1 registered at an agent that accepts everything
 * ({@link SuspendPreemptionGresTest.AcceptingAgent}) and a fake select-svc in process, for driving its preemption pass.
 */
final class PreemptionRig implements AutoCloseable {
    final ControllerHarness h;
    final ManagedChannel selectChannel;
    private final InProcessSelect selectService;
    /** n1's agent. */
    final SuspendPreemptionGresTest.AcceptingAgent agent = new SuspendPreemptionGresTest.AcceptingAgent();
    private final Server agentServer;

    PreemptionRig(String config, BindableService select) throws Exception {
        agentServer = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(agent).build().start();
        selectService = new InProcessSelect(select);
        selectChannel = selectService.channel;
        h = new ControllerHarness(config);
        h.register("127.0.0.1:" + agentServer.getPort(), "n1");
    }

    /** A requeueable two-CPU job of alice's in {@code partition}, with {@code gres}; its id. */
    long submit(String partition, String... gres) {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).addPartitions(partition).setNtasks(2)
                .addAllGres(List.of(gres)).setRequeue(true).build())).join();
    }

    /** A preemption pass of this controller's, which keeps its state between runs as the scheduling loop's does. */
    PreemptionPass pass() {
        return new PreemptionPass(h.controller.passes, null);
    }

    /**
     * What a main pass does for preemption, with {@code considered} as its queue: asks on the controller thread, sends
     * the question in a Plan call, and carries out the answer on the controller thread.
     */
    void preempt(PreemptionPass pass, List<JobRecord> considered) {
        PreemptionPass.Asked asked = h.controller.call(() -> pass.ask(considered)).join();
        if (asked == null) {
            return;
        }
        PlanResponse answer = SelectGrpc.newBlockingStub(selectChannel).plan(PlanRequest.newBuilder()
                .setEpoch(h.controller.epoch()).setPreemption(asked.request()).build());
        h.controller.run(() -> pass.answer(asked, answer.getPreemption())).join();
    }

    @Override
    public void close() {
        h.close();
        selectService.close();
        agentServer.shutdownNow();
    }
}
