package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.ClusterEvent;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.common.config.PreemptAction;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.PreemptionPlan;
import dev.gantry.scheduler.preempt.VictimPlan;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A preemption whose victims are all SUSPEND, carried out by a real controller: the preemptor starts at once over the
 * victims' CPUs, the victims are suspended, and gang-svc hears of the preemptor before the suspensions (so it takes
 * them for its own shadow decision and resumes them when the preemptor ends).
 */
class SuspendPreemptionTest {

    ControllerHarness h;
    final List<ClusterEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                PreemptType=preempt/partition_prio
                PreemptMode=SUSPEND,GANG
                NodeName=n[1-2] CPUs=2 RealMemory=1000
                PartitionName=low Nodes=n[1-2] Default=YES PriorityTier=1 MaxTime=60
                PartitionName=hi Nodes=n[1-2] PriorityTier=2 MaxTime=60
                """);
        h.registerNodes("n1", "n2");
    }

    @AfterEach
    void stop() {
        h.close();
    }

    /** Watches the controller's events as gang-svc does: a snapshot of what runs now, then what changes. */
    void watchEvents() {
        h.controller.call(() -> {
            var feed = h.controller.events.newFeed("test", new StreamObserver<>() {
                @Override
                public void onNext(ClusterEvent e) {
                    events.add(e);
                }

                @Override
                public void onError(Throwable t) { }

                @Override
                public void onCompleted() { }
            });
            h.controller.events.subscribe(feed, ClusterProtos.snapshot(h.controller.state));
            return null;
        }).join();
    }

    long submit(String partition) {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser("alice").setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).addPartitions(partition).setNtasks(2)
                .build())).join();
    }

    long running(String node, long memoryMb) {
        long id = submit("low");
        h.startOn(id, "low", new NodeShare(node, 2, memoryMb));
        return id;
    }

    private record After(JobRecord preemptor, JobRecord victim, JobRecord bystander) {}

    After carryOut(long preemptor, long victim, long bystander, NodeShare placement) {
        return carryOut(preemptor, victim, bystander, placement, false);
    }

    After carryOut(long preemptor, long victim, long bystander, NodeShare placement, boolean timeSliced) {
        PreemptionPlan.Go go = new PreemptionPlan.Go(preemptor,
                List.of(new VictimPlan(victim, PreemptAction.SUSPEND, PreemptAction.SUSPEND, 0, timeSliced)), List.of());
        return h.controller.call(() -> {
            new SuspendPreemption(h.controller.state, h.controller.applier, h.controller.gang, h.controller.metrics,
                    h.controller.clock, h.controller.events).carryOut(h.controller.state.job(preemptor), go, "hi",
                    List.of(placement), h.now.get(), h.controller.events.revision());
            return new After(h.controller.state.job(preemptor), h.controller.state.job(victim),
                    h.controller.state.job(bystander));
        }).join();
    }

    @Test
    void thePreemptorStartsOverTheVictimsCpus_andTheVictimIsSuspended() throws Exception {
        long victim = running("n1", 600);
        long bystander = running("n2", 600);
        long hi = submit("hi");
        watchEvents();

        After after = carryOut(hi, victim, bystander, new NodeShare("n1", 2, 400));

        assertEquals(JobState.RUNNING, after.preemptor().state());
        assertEquals(JobState.SUSPENDED, after.victim().state());
        assertEquals("Preempted by job " + hi, after.victim().reason());
        assertEquals(h.now.get(), after.victim().preemptTime());
        assertEquals(JobState.RUNNING, after.bystander().state());
        assertEquals(1.0, h.registry.get("gantry_preemptions_total").tag("mode", "suspend").tag("partition", "low")
                .counter().count());
        awaitEvents(e -> e.hasAllocationChanged() && e.getAllocationChanged().getJobId() == victim);
        List<String> order = events.stream().filter(e -> e.hasAllocationAdded() || e.hasAllocationChanged())
                .map(e -> e.hasAllocationAdded() ? "added " + e.getAllocationAdded().getJobId()
                        : "changed " + e.getAllocationChanged().getJobId() + " suspended="
                                + e.getAllocationChanged().getSuspended())
                .toList();
        assertEquals(List.of("added " + hi, "changed " + victim + " suspended=true"), order,
                "gang-svc must see the preemptor's shadow before the suspension it explains");
    }

    @Test
    void whenThePreemptorsMemoryDoesNotFitBesideTheVictim_nothingHappens() {
        long victim = running("n1", 600);
        long bystander = running("n2", 600);
        long hi = submit("hi");

        After after = carryOut(hi, victim, bystander, new NodeShare("n1", 2, 401));

        assertEquals(JobState.PENDING, after.preemptor().state());
        assertEquals(JobState.RUNNING, after.victim().state());
    }

    @Test
    void aTimeSlicedVictim_keepsRunning_forGangSvcToRotateWithThePreemptor() {
        long victim = running("n1", 100);
        long bystander = running("n2", 100);
        long hi = submit("hi");

        After after = carryOut(hi, victim, bystander, new NodeShare("n1", 2, 100), true);

        assertEquals(JobState.RUNNING, after.preemptor().state());
        assertEquals(JobState.RUNNING, after.victim().state(), "preempt/qos in one partition: they time-slice");
    }

    private void awaitEvents(java.util.function.Predicate<ClusterEvent> seen) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (events.stream().noneMatch(seen) && Instant.now().isBefore(deadline)) {
            Thread.sleep(10);
        }
        assertTrue(events.stream().anyMatch(seen), "event not seen: " + events);
    }
}
