package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.Placement;
import dev.gantry.api.v1.PlanRequest;
import dev.gantry.api.v1.PlanResponse;
import dev.gantry.api.v1.SelectGrpc;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobState;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A main pass's one Plan call carries the controller's changes since select-svc's last answer, so select-svc's replica
 * can catch up from the request instead of waiting for its event stream. The controller and its scheduling loop are
 * real; select-svc is a scripted fake that records what it is asked.
 */
class MainPassChangesTest {

    static final String CONFIG = """
            NodeName=n[1-2] CPUs=1 RealMemory=1000
            PartitionName=p Nodes=n[1-2] Default=YES MaxTime=UNLIMITED
            """;

    /** Starts {@link #first} on n1; places nobody else. Answers at the request's own epoch and revision. */
    static final class RecordingSelect extends SelectGrpc.SelectImplBase {
        final List<PlanRequest> asked = new CopyOnWriteArrayList<>();
        volatile long first;

        @Override
        public void plan(PlanRequest request, StreamObserver<PlanResponse> out) {
            asked.add(request);
            PlanResponse.Builder r = PlanResponse.newBuilder().setEpoch(request.getEpoch())
                    .setRevision(request.getMinRevision());
            if (request.getQueueList().contains(first) || request.getJobsList().stream().anyMatch(j -> j.getJobId() == first)) {
                r.addPlacements(Placement.newBuilder().setJobId(first).setStartNow(true).setPartition("p")
                        .addNodes(NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemoryMb(10)));
            }
            out.onNext(r.build());
            out.onCompleted();
        }
    }

    final RecordingSelect select = new RecordingSelect();
    ControllerHarness h;
    InProcessSelect selectService;
    SchedulingLoop loop;

    @AfterEach
    void stop() {
        loop.close();
        selectService.close();
        h.close();
    }

    long submit() {
        return h.controller.submit(JobRequests.fromProto(dev.gantry.api.v1.JobSpec.newBuilder()
                .setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000).setGid(1000).setWorkDir("/tmp")
                .setTimeLimitSeconds(600).build())).join();
    }

    @Test
    void theNextPassCarriesTheStartTheLastAnswerDidNotSee() throws Exception {
        h = new ControllerHarness(CONFIG);
        h.registerNodes("n1", "n2");
        selectService = new InProcessSelect(select);
        select.first = submit();
        loop = new SchedulingLoop(h.controller.passes, selectService.channel, 60_000);
        h.controller.setScheduleTrigger(loop::trigger);
        loop.trigger();
        await(() -> h.job(select.first).state() == JobState.RUNNING, "the first job starts");
        PlanRequest firstCall = select.asked.getFirst();
        int callsBefore = select.asked.size();

        long second = submit();
        await(() -> select.asked.stream().skip(callsBefore).anyMatch(r -> r.getQueueList().contains(second)
                || r.getJobsList().stream().anyMatch(j -> j.getJobId() == second)), "a pass asks about the second job");

        PlanRequest later = select.asked.stream().skip(callsBefore).filter(r -> !r.getChangesList().isEmpty())
                .findFirst().orElseThrow(() -> new AssertionError("no later pass carried changes: " + select.asked));
        List<ClusterEvent> changes = later.getChangesList();
        assertEquals(h.controller.epoch(), changes.getFirst().getEpoch());
        assertTrue(changes.getFirst().getRevision() > firstCall.getMinRevision(),
                "only what the first answer (at revision " + firstCall.getMinRevision() + ") did not see");
        assertEquals(later.getMinRevision(), changes.getLast().getRevision(), "up to the revision the pass asks for");
        for (int i = 1; i < changes.size(); i++) {
            assertEquals(changes.get(i - 1).getRevision() + 1, changes.get(i).getRevision(), "in order, without gaps");
        }
        assertTrue(changes.stream().anyMatch(e -> e.hasAllocationAdded()
                && e.getAllocationAdded().getJobId() == select.first), "the first job's start: " + changes);
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
