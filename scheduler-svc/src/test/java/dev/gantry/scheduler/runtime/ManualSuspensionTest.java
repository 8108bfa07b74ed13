package dev.gantry.scheduler.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobResult;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.api.ClusterProtos;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.api.JobRequests;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * scontrol suspend and resume, and who may act on whose jobs, through a real controller: only operators and
 * administrators suspend; a suspended job's CPUs go back to the pool (memory stays), gang-svc cannot resume it, its
 * suspended time counts neither as run time nor against its limit, and it resumes only once its CPUs are free.
 */
class ManualSuspensionTest {

    ControllerHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControllerHarness("""
                SlurmUser=slurm
                NodeName=n[1-2] CPUs=4 RealMemory=8192
                PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=60 State=UP
                Account=physics Users=alice,bob,oper,boss
                User=oper DefaultAccount=physics AdminLevel=Operator
                User=boss DefaultAccount=physics AdminLevel=Administrator
                """);
        h.registerNodes("n1");
    }

    @AfterEach
    void stop() {
        h.close();
    }

    long submit(String user) {
        return h.controller.submit(JobRequests.fromProto(JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setUser(user).setUid(1000)
                .setGid(1000).setWorkDir("/tmp").setTimeLimitSeconds(60).build())).join();
    }

    /** A job of alice's running on n1 with 4 CPUs (cores 0-3) and 1 GiB. */
    long running() {
        long id = submit("alice");
        h.startOn(id, "debug", new NodeShare("n1", 4, 1024, List.of(0, 1, 2, 3), List.of()));
        return id;
    }

    void advance(long seconds) {
        h.now.set(h.now.get().plusSeconds(seconds));
    }

    JobResult suspend(long id, String user) {
        return h.controller.suspension.suspend(List.of(id), user).join().get(0);
    }

    JobResult resume(long id, String user) {
        return h.controller.suspension.resume(List.of(id), user).join().get(0);
    }

    int allocCpus(String node) {
        return h.controller.call(() -> h.controller.state.node(node).allocCpus()).join();
    }

    long allocMemory(String node) {
        return h.controller.call(() -> h.controller.state.node(node).allocMemoryMb()).join();
    }

    @ParameterizedTest(name = "{0} may suspend and resume: {1}")
    @MethodSource("roles")
    void onlyOperatorsAndAdministrators_suspendAndResume(String user, boolean may) {
        long id = running();
        if (may) {
            assertTrue(suspend(id, user).getOk());
            assertTrue(resume(id, user).getOk());
        } else {
            CompletionException e = assertThrows(CompletionException.class, () -> suspend(id, user));
            assertTrue(e.getCause() instanceof ManualSuspension.AccessDenied, e.toString());
            assertTrue(e.getCause().getMessage().startsWith("scontrol suspend: only operators and administrators may"),
                    e.getCause().getMessage());
            assertTrue(e.getCause().getMessage().endsWith("Access/permission denied"), e.getCause().getMessage());
            assertEquals(JobState.RUNNING, h.job(id).state());
        }
    }

    static Stream<Arguments> roles() {
        return Stream.of(
                Arguments.of("alice", false), // the job's own user: suspend is for operators (scontrol(1))
                Arguments.of("bob", false),
                Arguments.of("oper", true), // AdminLevel=Operator
                Arguments.of("boss", true), // AdminLevel=Administrator
                Arguments.of("root", true),
                Arguments.of("slurm", true)); // SlurmUser
    }

    @Test
    void suspend_stopsTheJob_releasesItsCpus_keepsItsMemory_andPublishesOnlyTheMemory() {
        long id = running();
        assertEquals(4, allocCpus("n1"));

        assertTrue(suspend(id, "oper").getOk());

        JobRecord j = h.job(id);
        assertEquals(JobState.SUSPENDED, j.state());
        assertTrue(j.adminSuspended());
        assertTrue(h.store.jobs.get(id).adminSuspended()); // durable before the answer
        assertEquals(0, allocCpus("n1"));
        assertEquals(1024, allocMemory("n1"));
        assertEquals(0, h.controller.call(() -> h.controller.state.coreUse("n1", 0)).join());
        var published = ClusterProtos.allocation(j);
        assertTrue(published.getSuspended());
        assertEquals(0, published.getNodes(0).getCpus());
        assertEquals(List.of(), published.getNodes(0).getCoreIdsList());
        assertEquals(1024, published.getNodes(0).getMemoryMb());
        assertTrue(JobProtos.toProto(j).getAdminSuspended());
    }

    @Test
    void gangSvc_cannotResumeAnOperatorsSuspension() {
        long id = running();
        suspend(id, "oper");

        var outcome = h.slice(List.of(), List.of(id));

        assertEquals(List.of(id), outcome.skipped());
        assertEquals(JobState.SUSPENDED, h.job(id).state());
    }

    @Test
    void resume_countsTheSuspendedTime_andTheTimeLimitExcludesIt() {
        long id = running();
        advance(50);
        suspend(id, "oper");
        advance(600); // far past the 60 s limit, but suspended
        h.controller.run(h.controller.lifecycle::enforceTimeLimits).join();
        assertEquals(JobState.SUSPENDED, h.job(id).state());

        assertTrue(resume(id, "oper").getOk());

        JobRecord j = h.job(id);
        assertEquals(JobState.RUNNING, j.state());
        assertFalse(j.adminSuspended());
        assertEquals(600, j.suspendedSeconds());
        assertEquals(4, allocCpus("n1"));
        assertEquals(50, JobProtos.toProto(j).getRunSeconds());
        advance(9); // 59 s of running
        h.controller.run(h.controller.lifecycle::enforceTimeLimits).join();
        assertEquals(JobState.RUNNING, h.job(id).state());
        advance(2);
        h.controller.run(h.controller.lifecycle::enforceTimeLimits).join();
        assertEquals(JobState.TIMEOUT, h.job(id).state());
    }

    @Test
    void resume_waitsUntilTheReleasedCpusAreFree() {
        long id = running();
        suspend(id, "oper");
        long other = submit("bob");
        h.startOn(other, "debug", new NodeShare("n1", 2, 0, List.of(2, 3), List.of())); // two of the released cores

        assertEquals("Requested nodes are busy", resume(id, "oper").getError());
        assertEquals(JobState.SUSPENDED, h.job(id).state());

        h.controller.lifecycle.cancel(List.of(other)).join();
        assertEquals("Requested nodes are busy", resume(id, "oper").getError(), "its processes are still being killed");
        h.killed(other);
        assertTrue(resume(id, "oper").getOk());
        assertEquals(JobState.RUNNING, h.job(id).state());
    }

    @Test
    void refusals_areSlurmsMessages() {
        long pending = submit("alice");
        long id = running();
        assertEquals("Job is pending execution", suspend(pending, "oper").getError());
        assertEquals("Job is pending execution", resume(pending, "oper").getError());
        assertEquals("Requested operation is presently disabled", resume(id, "oper").getError()); // running
        assertEquals("Invalid job id specified", suspend(999, "oper").getError());
        h.slice(List.of(id), List.of()); // gang-svc's suspension
        assertEquals("Requested operation is presently disabled", suspend(id, "oper").getError());
        assertEquals("Requested operation is presently disabled", resume(id, "oper").getError());
        h.controller.lifecycle.cancel(List.of(id)).join();
        assertEquals("Job/step already completing or completed", suspend(id, "oper").getError());
    }

    @Test
    void requeueOfASuspendedJob_leavesItHeld() {
        long id = running();
        suspend(id, "oper");

        assertTrue(h.controller.commands.requeue(List.of(id), "oper", false).join().get(0).getOk());

        JobRecord j = h.job(id);
        assertEquals(JobState.PENDING, j.state());
        assertFalse(j.adminSuspended());
        assertEquals("JobHeldUser", j.reason());
    }

    @Test
    void usersCancelTheirOwnJobs_operatorsAnyones() {
        long a = submit("alice");
        long b = submit("alice");

        assertEquals("Access/permission denied", h.controller.lifecycle.cancel(List.of(a), "bob").join().get(0).error());
        assertEquals(JobState.PENDING, h.job(a).state());
        assertEquals(null, h.controller.lifecycle.cancel(List.of(a), "alice").join().get(0).error());
        assertEquals(null, h.controller.lifecycle.cancel(List.of(b), "oper").join().get(0).error());
        assertEquals(JobState.CANCELLED, h.job(b).state());
    }
}
