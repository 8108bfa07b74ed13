package dev.gantry.cli.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.cli.model.GresInfo;
import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.model.JobStatus;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The controller's Job as squeue and scontrol read it: every field they print, unset ones as unset. */
class JobInfosTest {

    private static final Instant T0 = Instant.parse("2026-11-22T12:00:00.250Z");

    private static Timestamp at(Instant t) {
        return ProtoTime.timestamp(t);
    }

    /** A running array task with every field a report reads set to a value of its own. */
    private static Job everyField() {
        return Job.newBuilder()
                .setJobId(42)
                .setSpec(JobSpec.newBuilder().setName("train").setUser("alice").setUid(-2).setGid(1000)
                        .addPartitions("gpu").addPartitions("debug").setCpusPerTask(2).setMinNodes(1).setMaxNodes(3)
                        .setMemPerNodeMb(2048).setExclusiveUser(true).setWorkDir("/w").setSubmitHost("login1")
                        .setStdoutPath("o-%j").setStderrPath("e-%j"))
                .setState(dev.gantry.api.v1.JobState.JOB_STATE_RUNNING).setCompleting(true).setReason("None")
                .setPartition("gpu").setExitCode(3).setExitSignal(9)
                .setArrayJobId(40).setArrayTaskId(2).setArrayTaskSpec("5-9").setArrayMaxRunning(4)
                .setAccount("physics").setQos("high").setPriority(-1L).setNice(-5).setDependency("afterok:7")
                .setRequeue(true).setRestartCount(2).setSchedByBackfill(true).setSchedInLastBackfill(true)
                .addSchedNodes("n3").setSchedNodeList("n3")
                .setSubmitTime(at(T0)).setEligibleTime(at(T0.plusSeconds(1))).setStartTime(at(T0.plusSeconds(2)))
                .setEndTime(at(T0.plusSeconds(3))).setLastStateChange(at(T0.plusSeconds(4)))
                .setPreemptTime(at(T0.plusSeconds(5))).setPreemptEligibleTime(at(T0.plusSeconds(6)))
                .setLastSchedEval(at(T0.plusSeconds(7))).setTimeLimitSeconds(3600).setTimeUsedSeconds(0)
                .setSuspendSeconds(11).setRunSeconds(12)
                .addNodes("n1").addNodes("n2").setNodeList("n[1-2]").setNumNodes(2).setNumCpus(8).setNumTasks(4)
                .setMemPerNodeMb(4096).setBatchHost("n1")
                .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(4).setMemoryMb(4096)
                        .addCoreIds(0).addCoreIds(1).addGres(dev.gantry.api.v1.Gres.newBuilder().setName("gpu")
                                .setType("a100").setCount(1).addIndices(3)))
                .setMaxNodes(3).setMemPerCpuMb(512).setNtasksPerNode(2)
                .addGres(dev.gantry.api.v1.Gres.newBuilder().setName("gpu").setCount(1))
                .setExclusive(true).setContiguous(true).setConstraint("intel&ib").addReqNodes("n1").addExcNodes("n9")
                .build();
    }

    @Test
    void identityAndState() {
        JobInfo job = JobInfos.job(everyField());
        assertEquals(42, job.jobId());
        assertEquals("train", job.name());
        assertEquals("alice", job.user());
        assertEquals("4294967294", Integer.toUnsignedString(job.uid()), "uid stays unsigned");
        assertEquals(1000, job.gid());
        assertEquals(JobStatus.RUNNING, job.state());
        assertTrue(job.completing());
        assertEquals("None", job.reason());
        assertEquals("gpu", job.partition());
        assertEquals(3, job.exitCode());
        assertEquals(9, job.exitSignal());
        assertEquals(new JobInfo.ArrayTask(40, 2, "5-9", 4), job.array());
    }

    @Test
    void scheduling() {
        JobInfo.Scheduling s = JobInfos.job(everyField()).scheduling();
        assertEquals("physics", s.account());
        assertEquals("high", s.qos());
        assertEquals("18446744073709551615", Long.toUnsignedString(s.priority()), "priority stays unsigned");
        assertEquals(-5, s.nice());
        assertEquals("afterok:7", s.dependency());
        assertTrue(s.requeue());
        assertEquals(2, s.restartCount());
        assertTrue(s.byBackfill());
        assertTrue(s.inLastBackfill());
        assertEquals(List.of("n3"), s.schedNodes());
        assertEquals("n3", s.schedNodeList());
    }

    @Test
    void times_toTheNanosecond_andTheControllersRunTime_evenZero() {
        JobInfo.Times t = JobInfos.job(everyField()).times();
        assertEquals(new JobInfo.Times(T0, T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3), T0.plusSeconds(4),
                T0.plusSeconds(5), T0.plusSeconds(6), T0.plusSeconds(7), 3600, 0L, 11, 12), t);
        assertEquals(250_000_000, t.submit().getNano());
    }

    @Test
    void resourcesAndSelection() {
        JobInfo job = JobInfos.job(everyField());
        assertEquals(new JobInfo.Resources(List.of("n1", "n2"), "n[1-2]", 2, 8, 4, 4096, "n1",
                List.of(new dev.gantry.cli.model.NodeAllocation("n1", 4096, List.of(0, 1),
                        List.of(new GresInfo("gpu", "a100", 1, List.of(3)))))), job.resources());
        assertEquals(new JobInfo.Selection(3, 512, 2, List.of(new GresInfo("gpu", "", 1, List.of())), true, true,
                "intel&ib", List.of("n1"), List.of("n9")), job.selection());
    }

    @Test
    void theRequestAsSubmitted() {
        assertEquals(new JobInfo.Submitted(List.of("gpu", "debug"), 2, 1, 3, 2048L, true, "/w", "login1", "o-%j",
                "e-%j"), JobInfos.job(everyField()).submitted());
    }

    @Test
    void anEmptyJob_leavesEveryOptionalValueUnset() {
        JobInfo job = JobInfos.job(Job.getDefaultInstance());
        assertEquals(JobStatus.UNKNOWN, job.state());
        assertEquals(new JobInfo.ArrayTask(0, null, "", 0), job.array());
        assertEquals(new JobInfo.Times(null, null, null, null, null, null, null, null, 0, null, 0, 0), job.times());
        assertEquals(new JobInfo.Submitted(List.of(), null, null, null, null, false, "", "", "", ""), job.submitted());
        assertEquals("", job.resources().hostList());
        assertEquals("", job.scheduling().schedHostList());
    }

    @Test
    void anArrayTaskWithIndexZero_isATask() {
        JobInfo.ArrayTask task = JobInfos.job(Job.newBuilder().setArrayJobId(40).setArrayTaskId(0).build()).array();
        assertEquals(0, task.taskId());
        assertEquals("0", task.taskText());
    }

    @Test
    void anAllZeroTimestamp_isUnset_asTheApiDefinesIt() {
        Job job = Job.newBuilder().setStartTime(Timestamp.getDefaultInstance())
                .setLastStateChange(Timestamp.newBuilder().setSeconds(0).setNanos(0)).build();
        assertTrue(job.hasLastStateChange());
        assertNull(JobInfos.job(job).times().start());
        assertNull(JobInfos.job(job).times().lastStateChange());
    }

    @Test
    void namesAreCompressedOnlyWhenTheControllerSentNoList() {
        JobInfo job = JobInfos.job(Job.newBuilder().addNodes("n1").addNodes("n2").addNodes("n3")
                .addSchedNodes("n4").addSchedNodes("n5").build());
        assertEquals("n[1-3]", job.resources().hostList());
        assertEquals("n[4-5]", job.scheduling().schedHostList());
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "JOB_STATE_PENDING, PENDING", "JOB_STATE_RUNNING, RUNNING", "JOB_STATE_SUSPENDED, SUSPENDED",
        "JOB_STATE_COMPLETED, COMPLETED", "JOB_STATE_CANCELLED, CANCELLED", "JOB_STATE_FAILED, FAILED",
        "JOB_STATE_TIMEOUT, TIMEOUT", "JOB_STATE_NODE_FAIL, NODE_FAIL", "JOB_STATE_PREEMPTED, PREEMPTED",
        "JOB_STATE_OUT_OF_MEMORY, OUT_OF_MEMORY", "JOB_STATE_UNSPECIFIED, UNKNOWN",
    })
    void statesBothWays(dev.gantry.api.v1.JobState api, JobStatus domain) {
        assertEquals(domain, JobInfos.state(api));
        assertEquals(api, JobInfos.toProto(domain));
    }

    @Test
    void aStateThisClientDoesNotKnow_isUnknown() {
        assertEquals(JobStatus.UNKNOWN, JobInfos.job(Job.newBuilder().setStateValue(99).build()).state());
    }

    @ParameterizedTest
    @EnumSource(value = JobStatus.class, mode = EnumSource.Mode.EXCLUDE, names = "UNKNOWN")
    void everyKnownDomainState_hasItsOwnApiState(JobStatus state) {
        assertEquals(state, JobInfos.state(JobInfos.toProto(state)));
        assertFalse(JobInfos.toProto(state) == dev.gantry.api.v1.JobState.JOB_STATE_UNSPECIFIED);
    }

    @Test
    void stateListsKeepTheirOrder() {
        assertEquals(List.of(dev.gantry.api.v1.JobState.JOB_STATE_PENDING, dev.gantry.api.v1.JobState.JOB_STATE_RUNNING),
                JobInfos.toProto(EnumSet.of(JobStatus.RUNNING, JobStatus.PENDING)));
    }
}
