package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.LaunchJobResponse;
import dev.gantry.api.v1.NodeAgentGrpc;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.PlacePreemptingRequest;
import dev.gantry.api.v1.PlacePreemptingResponse;
import dev.gantry.api.v1.Placement;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.PreemptionPlacement;
import dev.gantry.api.v1.ResumeJobRequest;
import dev.gantry.api.v1.ResumeJobResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.api.v1.SuspendJobRequest;
import dev.gantry.api.v1.SuspendJobResponse;
import dev.gantry.api.v1.TerminateJobRequest;
import dev.gantry.api.v1.TerminateJobResponse;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.stub.StreamObserver;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SUSPEND preemption with GPUs, through a real controller's preemption pass: a suspended victim keeps its GPU (as it
 * keeps its memory), so a preemptor that needs that GPU escalates the victim to REQUEUE, while a preemptor that needs
 * only CPUs suspends it and starts beside it. select-svc is a fake that names the victim and a placement on its node.
 */
class SuspendPreemptionGresTest {

    static final String CONFIG = """
            PreemptType=preempt/partition_prio
            PreemptMode=SUSPEND,GANG
            GresTypes=gpu
            NodeName=n1 CPUs=2 RealMemory=1000 Gres=gpu:1
            PartitionName=low Nodes=n1 Default=YES PriorityTier=1 MaxTime=60
            PartitionName=hi Nodes=n1 PriorityTier=2 MaxTime=60
            """;

    /** Answers every query with the preemptor on n1's two CPUs (and the GPU when it asks one), over the victim. */
    static final class OverTheVictim extends SelectGrpc.SelectImplBase {
        volatile long victim;
        /** A second victim of every placement, when not 0. */
        volatile long alsoVictim;

        @Override
        public void plan(PlanRequest request, StreamObserver<PlanResponse> out) {
            out.onNext(PlanResponse.newBuilder().setPreemption(preempt(request.getPreemption())).build());
            out.onCompleted();
        }

        /** Every query placed on n1 over the victim (the main pass places nobody, so every query is tried). */
        private PlacePreemptingResponse preempt(PlacePreemptingRequest request) {
            PlacePreemptingResponse.Builder r = PlacePreemptingResponse.newBuilder();
            request.getQueriesList().forEach(q -> {
                NodeAllocation.Builder n1 = NodeAllocation.newBuilder().setNode("n1").setCpus(2);
                q.getJob().getGresList().forEach(g -> n1.addGres(Gres.newBuilder().setName("gpu").setCount(g.getCount())));
                PreemptionPlacement.Builder placement = PreemptionPlacement.newBuilder().addVictims(victim);
                if (alsoVictim != 0) {
                    placement.addVictims(alsoVictim);
                }
                r.addResults(placement.setPlacement(Placement.newBuilder()
                        .setJobId(q.getJob().getJobId()).setStartNow(true).setPartition("hi").addNodes(n1)));
            });
            return r.build();
        }
    }

    /** Every node's agent: accepts everything. */
    static final class AcceptingAgent extends NodeAgentGrpc.NodeAgentImplBase {
        /**
         * Whether a terminated job's processes take their time to end (TerminateJob answers was_running; no exit report
         * follows, so the job stays completing), rather than being gone at once (was_running false: released).
         */
        volatile boolean killsTakeTime;

        @Override
        public void launchJob(LaunchJobRequest request, StreamObserver<LaunchJobResponse> out) {
            out.onNext(LaunchJobResponse.newBuilder().setPid(100).build());
            out.onCompleted();
        }

        @Override
        public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> out) {
            out.onNext(TerminateJobResponse.newBuilder().setWasRunning(killsTakeTime).build());
            out.onCompleted();
        }

        @Override
        public void suspendJob(SuspendJobRequest request, StreamObserver<SuspendJobResponse> out) {
            out.onNext(SuspendJobResponse.getDefaultInstance());
            out.onCompleted();
        }

        @Override
        public void resumeJob(ResumeJobRequest request, StreamObserver<ResumeJobResponse> out) {
            out.onNext(ResumeJobResponse.getDefaultInstance());
            out.onCompleted();
        }
    }

    final OverTheVictim select = new OverTheVictim();
    PreemptionRig rig;
    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        rig = new PreemptionRig(CONFIG, select);
        h = rig.h;
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    long submit(String partition, String... gres) {
        return rig.submit(partition, gres);
    }

    /** A low job running on n1's two CPUs and its GPU. */
    long victimHoldingTheGpu() {
        long id = submit("low", "gpu:1");
        h.startOn(id, "low", new NodeShare("n1", 2, 0, List.of(), List.of(new GresGrant("gpu", "", 1, List.of(0)))));
        select.victim = id;
        return id;
    }

    private record After(JobRecord preemptor, JobRecord victim) {}

    After preemptionPass(long preemptor, long victim) throws InterruptedException {
        rig.preempt(rig.pass(), List.of(h.job(preemptor)));
        return new After(h.job(preemptor), h.job(victim));
    }

    @Test
    void aPreemptorNeedingOnlyCpus_suspendsTheVictim_andStartsBesideItsGpu() throws Exception {
        long victim = victimHoldingTheGpu();
        long hi = submit("hi");

        After after = preemptionPass(hi, victim);

        assertEquals(JobState.SUSPENDED, after.victim().state());
        assertEquals(JobState.RUNNING, after.preemptor().state());
        assertEquals(1L, h.controller.call(() -> h.controller.state.gresInUse("n1").get("gpu")).join(),
                "the suspended victim still holds the GPU");
    }

    @Test
    void aPreemptorNeedingTheSuspendedVictimsGpu_escalatesTheVictimToRequeue() throws Exception {
        // the victim's kill takes its time (TerminateJob: was_running), so it is still completing when read below;
        // an agent that answered "gone" could release it before the read, on the agent call's own thread
        rig.agent.killsTakeTime = true;
        long victim = victimHoldingTheGpu();
        long hi = submit("hi", "gpu:1");

        After after = preemptionPass(hi, victim);

        assertEquals(JobState.PENDING, after.victim().state(), "requeued: suspended, it would keep the GPU");
        assertTrue(after.victim().completing(), "its processes are being killed");
        assertEquals(h.now.get(), after.victim().preemptTime());
        assertEquals(JobState.PENDING, after.preemptor().state(), "it starts once the victim's GPU is free");
        assertEquals(1.0, h.registry.get("gantry_preemption_escalations_total").tag("from", "suspend")
                .tag("to", "requeue").counter().count());
    }
}
