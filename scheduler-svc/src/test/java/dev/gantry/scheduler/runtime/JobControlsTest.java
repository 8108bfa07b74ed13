package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.UpdateJobRequest;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Submissions and scontrol's job controls through a real controller: what is refused, and what each does. */
class JobControlsTest {

    static final String CONFIG = """
            NodeName=n[1-4] CPUs=4 RealMemory=8192
            PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=60 State=UP
            PartitionName=phys Nodes=n[1-2] MaxTime=120 AllowAccounts=physics
            QOS=normal
            QOS=single MaxJobsPerUser=1
            QOS=small GrpTRES=cpu=4
            QOS=capped MaxSubmitJobsPerUser=2
            Account=physics Parent=root Fairshare=40 Users=alice,bob QOS=normal,single,small,capped DefaultQOS=normal
            Account=chem Parent=root Fairshare=60 Users=carol QOS=normal
            User=root DefaultAccount=physics AdminLevel=Administrator
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

    static JobSpec.Builder spec(String user) {
        return JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser(user).setUid(user.equals("root") ? 0 : 1000)
                .setGid(1000).setWorkDir("/tmp").setName("job");
    }

    long submit(JobSpec.Builder s) {
        return h.controller.submit(JobRequests.fromProto(s.build())).join();
    }

    String refusal(JobSpec.Builder s) {
        CompletionException e = assertThrows(CompletionException.class, () -> submit(s));
        assertTrue(e.getCause() instanceof Controller.RejectedSubmission, e.toString());
        return e.getCause().getMessage();
    }

    PendingReason reason(long id) {
        return h.prepare().pendingReasons().get(id);
    }

    // ---------------------------------------------------------------- accounts and QOS at submit

    @Test
    void account_defaultsToTheUsersFirst_andAnAccountNotTheirsIsRefused() {
        assertEquals("physics", h.job(submit(spec("alice"))).controls().account());
        assertEquals("chem", h.job(submit(spec("carol"))).controls().account());
        assertEquals("account: Invalid account or account/partition combination specified (user carol may use chem, not physics)",
                refusal(spec("carol").setAccount("physics")));
        assertTrue(refusal(spec("alice").setAccount("nosuch")).contains("no account named nosuch"));
        assertTrue(refusal(spec("mallory")).startsWith("account: Invalid account"));
    }

    @Test
    void qos_mustExist_andBeAllowedForTheAccount() {
        assertEquals("normal", h.job(submit(spec("alice"))).controls().qos());
        assertTrue(refusal(spec("alice").setQos("gold")).startsWith("qos: Invalid qos specification (no QOS named gold"));
        assertEquals("qos: Invalid qos specification (account chem may use normal, not single)",
                refusal(spec("carol").setQos("single")));
    }

    @Test
    void partitionAllowAccounts_refusesOtherAccounts() {
        submit(spec("alice").addPartitions("phys"));
        assertTrue(refusal(spec("carol").addPartitions("phys")).contains("partition phys AllowAccounts=physics"));
    }

    @Test
    void maxSubmitJobsPerUser_refusesTheSubmissionBeyondIt() {
        submit(spec("alice").setQos("capped"));
        submit(spec("alice").setQos("capped"));
        assertTrue(refusal(spec("alice").setQos("capped")).contains("MaxSubmitJobsPerUser=2"));
        submit(spec("bob").setQos("capped")); // another user's count is their own
    }

    @Test
    void maxSubmitJobsPerUser_countsEveryTaskOfAnArray() {
        assertTrue(refusal(spec("alice").setQos("capped").setArray("0-2")).contains("MaxSubmitJobsPerUser=2"));
        submit(spec("alice").setQos("capped").setArray("0-1"));
    }

    @Test
    void nice_negativeOnlyForAdministrators_andWithinSlurmsRange() {
        assertTrue(refusal(spec("alice").setNice(-5)).startsWith("nice: a negative nice value"));
        assertEquals(-5, h.job(submit(spec("root").setNice(-5))).controls().nice());
        assertTrue(refusal(spec("alice").setNice(2_147_483_646)).startsWith("nice: 2147483646 is out of range"));
    }

    // ---------------------------------------------------------------- arrays

    @Test
    void array_makesOneJobPerTask_withConsecutiveIds_andItsThrottleHoldsTheRest() {
        long id = submit(spec("alice").setArray("0-6:2%2"));
        List<JobRecord> tasks = List.of(h.job(id), h.job(id + 1), h.job(id + 2), h.job(id + 3));
        assertEquals(List.of(0, 2, 4, 6), tasks.stream().map(j -> j.controls().arrayTaskId()).toList());
        assertTrue(tasks.stream().allMatch(j -> j.controls().arrayJobId() == id && j.controls().arrayMaxRunning() == 2));
        assertEquals(List.of(id, id + 1), h.candidates());
        assertEquals(PendingReason.ARRAY_TASK_LIMIT, reason(id + 2));
    }

    @Test
    void cancellingTheArrayId_cancelsEveryTask() {
        long id = submit(spec("alice").setArray("1-3"));
        var outcome = h.controller.lifecycle.cancel(List.of(id)).join();
        assertEquals(null, outcome.get(0).error());
        for (long t = id; t < id + 3; t++) {
            assertEquals(JobState.CANCELLED, h.job(t).state());
        }
    }

    @Test
    void malformedArray_isRefusedWithSlurmsMessage() {
        assertTrue(refusal(spec("alice").setArray("5-2")).startsWith("array: Invalid job array specification"));
        assertTrue(refusal(spec("alice").setArray("0-2000")).startsWith("array: Invalid job array specification"));
    }

    // ---------------------------------------------------------------- dependencies and begin time

    @Test
    void dependencyOnAnUnknownJob_isRefused() {
        assertTrue(refusal(spec("alice").setDependency("afterok:999")).startsWith("dependency: Job dependency problem"));
    }

    @Test
    void afterok_waitsForItsJob_andIsNeverSatisfiedOnceItWasCancelled() {
        long first = submit(spec("alice"));
        long second = submit(spec("alice").setDependency("afterok:" + first));
        assertEquals(PendingReason.DEPENDENCY, reason(second));
        h.controller.lifecycle.cancel(List.of(first)).join();
        assertEquals(PendingReason.DEPENDENCY_NEVER_SATISFIED, reason(second));
    }

    @Test
    void afterany_isSatisfiedOnceItsJobEnded() {
        long first = submit(spec("alice"));
        long second = submit(spec("alice").setDependency("afterany:" + first));
        h.controller.lifecycle.cancel(List.of(first)).join();
        assertEquals(List.of(second), h.candidates());
    }

    @Test
    void beginTime_keepsTheJobPendingUntilThen() {
        long id = submit(spec("alice").setBeginTime(JobProtos.ts(h.now.get().plusSeconds(600))));
        assertEquals(PendingReason.BEGIN_TIME, reason(id));
        h.now.set(h.now.get().plusSeconds(600));
        assertEquals(List.of(id), h.candidates());
    }

    // ---------------------------------------------------------------- QOS limits while pending

    @Test
    void maxJobsPerUser_letsOneThroughPerPass_andTheOthersWaitWithTheReason() {
        long a = submit(spec("alice").setQos("single"));
        long b = submit(spec("alice").setQos("single"));
        long c = submit(spec("bob").setQos("single"));
        assertEquals(List.of(a, c), h.candidates());
        assertEquals(PendingReason.QOS_MAX_JOBS_PER_USER, reason(b));
    }

    @Test
    void grpTresCpu_countsEveryUsersJobsOfTheQos() {
        long a = submit(spec("alice").setQos("small").setNtasks(3));
        long b = submit(spec("bob").setQos("small").setNtasks(2));
        assertEquals(List.of(a), h.candidates());
        assertEquals(PendingReason.QOS_GRP_CPU, reason(b));
    }

    // ---------------------------------------------------------------- hold, release, update, top, requeue

    @Test
    void userHold_isReleasedByTheUser_butAnAdministratorsHoldOnlyByAnAdministrator() {
        long id = submit(spec("alice").setHold(true));
        assertEquals(PendingReason.HELD_USER, reason(id));
        assertOk(h.controller.commands.release(List.of(id), "alice").join());
        assertEquals(List.of(id), h.candidates());

        assertOk(h.controller.commands.hold(List.of(id), "root", false).join());
        assertEquals(JobControls.Hold.ADMIN, h.job(id).controls().hold());
        assertEquals(PendingReason.HELD_ADMIN, reason(id));
        assertEquals("Access/permission denied", h.controller.commands.release(List.of(id), "alice").join().get(0).getError());
        assertOk(h.controller.commands.release(List.of(id), "root").join());
    }

    @Test
    void anotherUsersJob_cannotBeHeld_andUnknownIdsSaySo() {
        long id = submit(spec("alice"));
        assertEquals("Access/permission denied", h.controller.commands.hold(List.of(id), "bob", true).join().get(0).getError());
        assertEquals("Invalid job id specified", h.controller.commands.hold(List.of(12345L), "alice", true).join().get(0).getError());
    }

    @Test
    void update_usersMayLowerTheTimeLimitButNotRaiseIt() {
        long id = submit(spec("alice").setTimeLimitSeconds(1800));
        var lower = UpdateJobRequest.newBuilder().addJobIds(id).setUser("alice").setTimeLimitSeconds(600).build();
        assertOk(h.controller.commands.update(lower).join());
        assertEquals(600, h.job(id).timeLimitSeconds());
        var raise = UpdateJobRequest.newBuilder().addJobIds(id).setUser("alice").setTimeLimitSeconds(3000).build();
        assertEquals("Access/permission denied", h.controller.commands.update(raise).join().get(0).getError());
        var byAdmin = UpdateJobRequest.newBuilder().addJobIds(id).setUser("root").setTimeLimitSeconds(7200).build();
        assertOk(h.controller.commands.update(byAdmin).join());
        assertEquals(PendingReason.PARTITION_TIME_LIMIT, reason(id)); // above debug's MaxTime of 60 minutes
    }

    @Test
    void update_partitionIsRecheckedAsASubmission() {
        long id = submit(spec("carol"));
        var phys = UpdateJobRequest.newBuilder().addJobIds(id).setUser("carol").addPartitions("phys").build();
        assertTrue(h.controller.commands.update(phys).join().get(0).getError().contains("AllowAccounts=physics"));
        long mine = submit(spec("alice"));
        var ok = UpdateJobRequest.newBuilder().addJobIds(mine).setUser("alice").addPartitions("phys").setMinNodes(2).build();
        assertOk(h.controller.commands.update(ok).join());
        assertEquals(List.of("phys"), h.job(mine).partitions());
        assertEquals(2, h.job(mine).ask().minNodes());
    }

    @Test
    void adminPriorityZero_holdsTheJob() {
        long id = submit(spec("alice"));
        var zero = UpdateJobRequest.newBuilder().addJobIds(id).setUser("root").setPriority(0).build();
        assertOk(h.controller.commands.update(zero).join());
        assertEquals(PendingReason.HELD_ADMIN, reason(id));
        var byUser = UpdateJobRequest.newBuilder().addJobIds(id).setUser("alice").setPriority(10).build();
        assertEquals("Access/permission denied", h.controller.commands.update(byUser).join().get(0).getError());
    }

    @Test
    void update_dependency_replacesItClearsItAndIsCheckedAsAtSubmission() {
        long first = submit(spec("alice"));
        long second = submit(spec("alice"));
        var wait = UpdateJobRequest.newBuilder().addJobIds(second).setUser("alice").setDependency("afterok:" + first).build();
        assertOk(h.controller.commands.update(wait).join());
        assertEquals("afterok:" + first, h.job(second).controls().dependency());
        assertEquals(PendingReason.DEPENDENCY, reason(second));

        var clear = UpdateJobRequest.newBuilder().addJobIds(second).setUser("alice").setDependency("").build();
        assertOk(h.controller.commands.update(clear).join());
        assertEquals("", h.job(second).controls().dependency());
        assertTrue(h.candidates().contains(second));

        var unknown = UpdateJobRequest.newBuilder().addJobIds(second).setUser("alice").setDependency("afterok:999").build();
        assertTrue(h.controller.commands.update(unknown).join().get(0).getError()
                .startsWith("dependency: Job dependency problem"));
        var self = UpdateJobRequest.newBuilder().addJobIds(second).setUser("alice").setDependency("after:" + second).build();
        assertTrue(h.controller.commands.update(self).join().get(0).getError().contains("cannot depend on itself"));
        var notMine = UpdateJobRequest.newBuilder().addJobIds(second).setUser("carol").setDependency("").build();
        assertEquals("Access/permission denied", h.controller.commands.update(notMine).join().get(0).getError());
        assertEquals("", h.job(second).controls().dependency(), "refused updates change nothing");
    }

    @Test
    void update_dependency_thatWouldCloseALoop_isRefused() {
        long a = submit(spec("alice"));
        long b = submit(spec("alice").setDependency("afterok:" + a));
        long c = submit(spec("alice").setDependency("afterany:" + b));
        var loop = UpdateJobRequest.newBuilder().addJobIds(a).setUser("alice").setDependency("afterok:" + c).build();
        String error = h.controller.commands.update(loop).join().get(0).getError();
        assertTrue(error.contains("dependency loop"), error);
        assertEquals("", h.job(a).controls().dependency());
    }

    @Test
    void top_putsTheJobFirstAmongTheUsersOwn() {
        long a = submit(spec("alice"));
        long b = submit(spec("alice"));
        long c = submit(spec("alice"));
        long other = submit(spec("bob"));
        assertOk(h.controller.commands.top(List.of(c), "alice").join());
        assertTrue(h.job(c).priority() > h.job(a).priority());
        assertTrue(h.job(a).priority() > h.job(b).priority());
        assertEquals(List.of(c, a, b), h.candidates().stream().filter(id -> id != other).toList());
    }

    @Test
    void requeue_ofAFinishedJob_putsItBackWithOneMoreRestart_butNotAPendingOne() {
        long id = submit(spec("alice"));
        assertEquals("Job is pending execution", h.controller.commands.requeue(List.of(id), "alice", false).join().get(0).getError());
        runToTheEnd(id, 0);
        assertEquals(JobState.COMPLETED, h.job(id).state());
        assertOk(h.controller.commands.requeue(List.of(id), "alice", true).join());
        JobRecord j = h.job(id);
        assertEquals(JobState.PENDING, j.state());
        assertEquals(1, j.controls().restartCount());
        assertEquals(PendingReason.HELD_USER, reason(id));
        assertEquals(JobState.PENDING, h.store.jobs.get(id).state()); // durable before the answer
    }

    @Test
    void noRequeue_jobsCannotBeRequeued() {
        long id = submit(spec("alice").setRequeue(false));
        runToTheEnd(id, 1);
        assertEquals(JobState.FAILED, h.job(id).state());
        assertEquals("Requested operation is presently disabled",
                h.controller.commands.requeue(List.of(id), "alice", false).join().get(0).getError());
        assertFalse(h.job(id).controls().requeue());
    }

    /** Starts the job on n1 and has its agent report its end with {@code exitCode}. */
    void runToTheEnd(long id, int exitCode) {
        h.registerNodes("n1");
        h.startOn(id, "debug", new NodeShare("n1", 1, 0));
        h.finish(id, exitCode);
    }

    // ---------------------------------------------------------------- QOS edits (the admin API)

    @Test
    void updateQos_byAnAdministrator_takesEffectAtOnce_andIsKeptForTheNextStart() throws Exception {
        long a = submit(spec("alice"));
        long b = submit(spec("alice"));
        var single = dev.gantry.api.v1.Qos.newBuilder().setName("normal").setMaxJobsPerUser(1).setMaxWallSeconds(-1)
                .setMaxSubmitJobsPerUser(-1).setPreemptExemptTimeSeconds(-1).setUsageFactor(1).build();
        assertEquals(1, h.controller.accounting.updateQos(single, "root").join().maxJobsPerUser());
        assertEquals(List.of(a), h.candidates());
        assertEquals(PendingReason.QOS_MAX_JOBS_PER_USER, reason(b));

        var restarted = new ControllerHarness(CONFIG, h.store, h.controller.stateStore);
        try {
            assertEquals(1, restarted.controller.accounting.listQos(List.of("normal")).join().get(0).maxJobsPerUser());
        } finally {
            restarted.close();
        }
    }

    @Test
    void updateQos_isRefusedForUsers_andForMalformedValues() {
        var q = dev.gantry.api.v1.Qos.newBuilder().setName("gold").setPriority(10).build();
        var denied = assertThrows(CompletionException.class, () -> h.controller.accounting.updateQos(q, "alice").join());
        assertTrue(((QosTable.RefusedChange) denied.getCause()).denied);
        var bad = q.toBuilder().setMaxJobsPerUser(-7).build();
        var invalid = assertThrows(CompletionException.class, () -> h.controller.accounting.updateQos(bad, "root").join());
        assertEquals("qos.max_jobs_per_user: -7 must be 0 or more, or -1 (unlimited)", invalid.getCause().getMessage());
        var unknownPreempt = q.toBuilder().addPreempt("nosuch").build();
        assertThrows(CompletionException.class, () -> h.controller.accounting.updateQos(unknownPreempt, "root").join());
    }

    @Test
    void updateQos_refusesAPreemptCycleBetweenQos() throws Exception {
        try (var qosPreempting = new ControllerHarness("""
                NodeName=n1 CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n1 Default=YES State=UP
                PreemptType=preempt/qos
                PreemptMode=REQUEUE
                QOS=low
                QOS=high Priority=10 Preempt=low
                User=root DefaultAccount=root AdminLevel=Administrator
                """)) {
            var lowPreemptsHigh = dev.gantry.api.v1.Qos.newBuilder().setName("low").addPreempt("high").setMaxWallSeconds(-1)
                    .setMaxJobsPerUser(-1).setMaxSubmitJobsPerUser(-1).setPreemptExemptTimeSeconds(-1).setUsageFactor(1).build();
            var refused = assertThrows(CompletionException.class,
                    () -> qosPreempting.controller.accounting.updateQos(lowPreemptsHigh, "root").join());
            assertTrue(refused.getCause() instanceof QosTable.RefusedChange, refused.toString());
            assertTrue(refused.getCause().getMessage().contains("loop"), refused.getCause().getMessage());
            assertEquals(List.of(), qosPreempting.controller.accounting.listQos(List.of("low")).join().get(0).preempt());
        }
    }

    private static void assertOk(List<JobResult> results) {
        for (JobResult r : results) {
            assertTrue(r.getOk(), r.getJobId() + ": " + r.getError());
        }
    }
}
