package dev.gantry.scheduler.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.model.JobRequest;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The submitted request maps to the domain and back without losing a field, its presence, or a byte of the stored form. */
class JobRequestsTest {

    /** Every field of JobSpec set, the optional ones to their default values (present, yet 0 or false). */
    static JobSpec everyField() {
        return JobSpec.newBuilder()
                .setName("train").setScript("#!/bin/sh\ntrue\n").addArgv("a").addArgv("b c").setWorkDir("/w")
                .setStdoutPath("o-%j").setStderrPath("e-%j").addPartitions("gpu").addPartitions("cpu")
                .setMinNodes(0).setMaxNodes(0).setNtasks(0).setCpusPerTask(0).setMemPerNodeMb(0).setTimeLimitSeconds(0)
                .putEnvironment("Z", "1").putEnvironment("A", "2").putEnvironment("M", "")
                .setUser("alice").setUid(-2).setGid(1000).setSubmitDir("/home/alice").setSubmitHost("login1")
                .setNtasksPerNode(0).setMemPerCpuMb(0).addGres("gpu:a100:2").addGres("nic").setExclusive(true)
                .setConstraint("intel&ib").setNodelist("n[1-2]").setExclude("n3").setContiguous(true)
                .setOversubscribe(true).setAccount("physics").setQos("high").setNice(0).setHold(true)
                .setBeginTime(Timestamp.newBuilder().setSeconds(1_800_000_000L).setNanos(5))
                .setDependency("afterok:7").setArray("0-9%2").setRequeue(false).setExclusiveUser(true)
                .build();
    }

    static Stream<Arguments> specs() {
        return Stream.of(
                Arguments.of("nothing given", JobSpec.getDefaultInstance()),
                Arguments.of("what sbatch sends by default", JobSpec.newBuilder().setScript("#!/bin/sh\n").setWorkDir("/tmp")
                        .setUser("bob").setUid(1001).setGid(1001).putEnvironment("PATH", "/bin").build()),
                Arguments.of("every field", everyField()),
                Arguments.of("every optional field non-zero", everyField().toBuilder().setMinNodes(2).setMaxNodes(4)
                        .setNtasks(8).setCpusPerTask(2).setMemPerNodeMb(1024).setTimeLimitSeconds(-1)
                        .setNtasksPerNode(2).clearMemPerCpuMb().setNice(-5).setRequeue(true).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void mapsToTheDomainAndBack_toTheSameMessageAndBytes(String name, JobSpec spec) {
        JobSpec back = JobRequests.toProto(JobRequests.fromProto(spec));
        assertEquals(spec, back);
        assertArrayEquals(spec.toByteArray(), back.toByteArray(), "the stored form is unchanged");
        assertEquals(JobRequests.fromProto(spec), JobRequests.fromProto(back));
    }

    @Test
    void theTestSetsEveryFieldOfJobSpec_soANewFieldFailsHereUntilItIsMapped() {
        List<String> unset = JobSpec.getDescriptor().getFields().stream().filter(f -> !isSet(everyField(), f))
                .map(FieldDescriptor::getName).toList();
        assertEquals(List.of(), unset);
    }

    private static boolean isSet(JobSpec spec, FieldDescriptor f) {
        return f.isRepeated() ? spec.getRepeatedFieldCount(f) > 0 : spec.hasField(f);
    }

    @Test
    void anOptionalFieldNotGiven_isNull_andOneGivenAsZero_isZero() {
        JobRequest none = JobRequests.fromProto(JobSpec.getDefaultInstance());
        assertNull(none.minNodes());
        assertNull(none.timeLimitSeconds());
        assertNull(none.nice());
        assertNull(none.requeue());
        assertNull(none.beginTime());
        assertEquals(JobRequest.EMPTY, none);
        JobRequest zeros = JobRequests.fromProto(everyField());
        assertEquals(0, zeros.minNodes());
        assertEquals(0L, zeros.timeLimitSeconds());
        assertEquals(false, zeros.requeue());
        assertEquals(Instant.ofEpochSecond(1_800_000_000L, 5), zeros.beginTime());
        assertEquals(List.of("Z", "A", "M"), List.copyOf(zeros.environment().keySet()), "the submitted order");
    }

    @Test
    void aStoredJobLoadsAndStoresTheSameSpec() {
        Job stored = JobProtos.toProto(dev.gantry.scheduler.Fixtures.aJob(5).build()).toBuilder().setSpec(everyField())
                .build();
        assertEquals(everyField(), JobProtos.toProto(JobProtos.fromProto(stored)).getSpec());
    }
}
