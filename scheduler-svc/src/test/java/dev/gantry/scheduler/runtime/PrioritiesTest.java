package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.priority.ShareRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** priority/multifactor through a real controller: QOS and fair-share factors, usage charged as jobs run. */
class PrioritiesTest {

    static final String CONFIG = """
            NodeName=n[1-4] CPUs=4 RealMemory=8192
            PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=UNLIMITED State=UP
            PriorityType=priority/multifactor
            PriorityWeightQOS=1000
            PriorityWeightFairshare=10000
            PriorityDecayHalfLife=1-0
            FairShareType=linear
            QOS=normal
            QOS=buyin Priority=100
            Account=physics Parent=root Fairshare=50 Users=alice QOS=normal,buyin
            Account=chem Parent=root Fairshare=50 Users=carol QOS=normal,buyin
            """;

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness(CONFIG);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    long submit(String user, String qos) {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser(user).setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setQos(qos).build())).join();
    }

    /** Starts a job on n1 with 4 CPUs from now, as a pass does with select-svc's placement: usage is charged from now. */
    void running(long id) {
        h.registerNodes("n1");
        h.startOn(id, "debug", new NodeShare("n1", 4, 0));
    }

    void recalculate() {
        h.controller.run(h.controller.accounting::recalculatePriorities).join();
    }

    @Test
    void aBuyInQos_addsItsWeightedFactor() {
        long normal = submit("alice", "normal");
        long buyin = submit("alice", "buyin");
        assertEquals(1000, h.job(buyin).priority() - h.job(normal).priority());
    }

    @Test
    void aQosEditedThroughTheApi_changesTheQosFactorAtTheNextRecalculation() {
        long normal = submit("alice", "normal");
        long buyin = submit("alice", "buyin");
        var gold = dev.gantry.api.v1.Qos.newBuilder().setName("gold").setPriority(200).setMaxWallSeconds(-1)
                .setMaxJobsPerUser(-1).setMaxSubmitJobsPerUser(-1).setPreemptExemptTimeSeconds(-1).setUsageFactor(1).build();
        h.controller.accounting.updateQos(gold, "root").join();
        recalculate();
        assertEquals(500, h.job(buyin).priority() - h.job(normal).priority()); // 100 of the highest 200, weight 1000
    }

    @Test
    void usageChargedWhileRunning_lowersTheUsersFairShare_afterTheNextRecalculation() {
        long alicePending = submit("alice", "normal");
        long carolPending = submit("carol", "normal");
        assertEquals(h.job(alicePending).priority(), h.job(carolPending).priority()); // nobody used anything yet
        running(submit("alice", "normal"));
        h.now.set(h.now.get().plusSeconds(3600));
        recalculate();
        assertTrue(h.job(alicePending).priority() < h.job(carolPending).priority(),
                h.job(alicePending).priority() + " vs " + h.job(carolPending).priority());
        ShareRow alice = h.controller.accounting.shares().join().stream().filter(r -> r.user().equals("alice")).findFirst().orElseThrow();
        assertEquals(4 * 3600, alice.tresRawUsage().get("cpu"), 1e-6); // 4 CPUs for an hour, no decay yet at this instant
    }

    @Test
    void sprioRows_addUpToThePriority_andAnAdministratorsPriorityIsLeftAlone() {
        long id = submit("alice", "buyin");
        var row = h.controller.accounting.priorityFactors(JobQueryAll.ALL).join().get(0);
        var f = row.priority();
        assertEquals(h.job(id).priority(), f.priority());
        assertEquals(f.priority(), (long) Math.floor(f.site() + f.age() + f.fairshare() + f.jobSize() + f.partitionFactor()
                + f.qosFactor() - f.nice()), 1);
        var fix = dev.gantry.api.v1.UpdateJobRequest.newBuilder().addJobIds(id).setUser("root").setPriority(7).build();
        h.controller.commands.update(fix).join();
        recalculate();
        assertEquals(7, h.job(id).priority());
    }

    @Test
    void usage_isStored_andAControllerStartedAfterwardsSeesIt() throws Exception {
        running(submit("alice", "normal"));
        h.now.set(h.now.get().plusSeconds(600));
        recalculate();
        // stored off the controller thread (a virtual thread): wait for it, and fail here if it never comes
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (h.controller.stateStore.get("fairshare-usage").isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the usage was never stored");
            Thread.sleep(20);
        }
        var restarted = new ControllerHarness(CONFIG, new ControllerHarness.MemoryStore(), h.controller.stateStore);
        try {
            restarted.now.set(h.now.get());
            double raw = restarted.controller.accounting.shares().join().stream().filter(r -> r.user().equals("alice"))
                    .findFirst().orElseThrow().tresRawUsage().get("cpu");
            assertEquals(4 * 600, raw, 1e-6);
        } finally {
            restarted.close();
        }
    }

    /** squeue's filter with nothing set. */
    static final class JobQueryAll {
        static final JobQuery ALL = new JobQuery(java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of());
    }
}
