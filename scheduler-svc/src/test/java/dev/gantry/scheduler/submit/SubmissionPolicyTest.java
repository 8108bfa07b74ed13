package dev.gantry.scheduler.submit;

import static dev.gantry.scheduler.Fixtures.aRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.JobRequest;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SubmissionPolicyTest {

    private final SubmissionPolicy policy = new SubmissionPolicy(Fixtures.config());

    static Stream<Arguments> rejected() {
        return Stream.of(
                Arguments.of("unknown partition", (UnaryOperator<JobRequest.Builder>) b -> b.addPartition("nope"),
                        "partitions", "invalid partition name specified: nope"),
                Arguments.of("zero nodes", (UnaryOperator<JobRequest.Builder>) b -> b.minNodes(0),
                        "min_nodes", "must be at least 1, got 0"),
                Arguments.of("negative tasks", (UnaryOperator<JobRequest.Builder>) b -> b.ntasks(-2),
                        "ntasks", "must be at least 1, got -2"),
                Arguments.of("zero cpus per task", (UnaryOperator<JobRequest.Builder>) b -> b.cpusPerTask(0),
                        "cpus_per_task", "must be at least 1, got 0"),
                Arguments.of("more nodes than the partition has", (UnaryOperator<JobRequest.Builder>) b -> b.minNodes(5),
                        "min_nodes", "5 nodes requested, partition debug has 4"),
                Arguments.of("time above MaxTime", (UnaryOperator<JobRequest.Builder>) b -> b.timeLimitSeconds(7200L),
                        "time_limit_seconds", "2:00:00 exceeds partition debug MaxTime 1:00:00"),
                Arguments.of("more CPUs per node than any node has", (UnaryOperator<JobRequest.Builder>) b -> b.cpusPerTask(5),
                        "cpus_per_task", "needs 5 CPUs per node; the largest node in partition debug has 4"),
                Arguments.of("more memory than any node has", (UnaryOperator<JobRequest.Builder>) b -> b.memPerNodeMb(9000L),
                        "mem_per_node_mb", "9000M per node requested; the largest node in partition debug has 8192M"),
                Arguments.of("max below min", (UnaryOperator<JobRequest.Builder>) b -> b.minNodes(3).maxNodes(2),
                        "max_nodes", "2 is less than min_nodes 3"),
                Arguments.of("fewer tasks than nodes", (UnaryOperator<JobRequest.Builder>) b -> b.minNodes(3).ntasks(2),
                        "ntasks", "cannot span min_nodes 3"),
                Arguments.of("not a script", (UnaryOperator<JobRequest.Builder>) b -> b.script("echo hi"),
                        "script", "must start with #!"),
                Arguments.of("relative work dir", (UnaryOperator<JobRequest.Builder>) b -> b.workDir("here"),
                        "work_dir", "must be an absolute path"),
                Arguments.of("inactive partition", (UnaryOperator<JobRequest.Builder>) b -> b.addPartition("closed"),
                        "partitions", "partition closed is INACTIVE"),
                Arguments.of("no user", (UnaryOperator<JobRequest.Builder>) b -> b.user(""),
                        "user", "is required"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects_withTheFieldAndTheLimit(String name, UnaryOperator<JobRequest.Builder> change, String field, String text) {
        var decision = policy.check(change.apply(aRequest()).build());
        var rejected = assertInstanceOf(SubmissionPolicy.Rejected.class, decision);
        assertEquals(field, rejected.field());
        assertTrue(rejected.message().startsWith(field + ": "), rejected.message());
        assertTrue(rejected.message().contains(text), rejected.message());
    }

    @Test
    void appliesSlurmDefaults() {
        var a = assertInstanceOf(SubmissionPolicy.Accepted.class, policy.check(aRequest().build()));
        assertEquals(java.util.List.of("debug"), a.partitions());
        assertEquals(1, a.ask().minNodes());
        assertEquals(1, a.ask().maxNodes());
        assertEquals(1, a.ask().numTasks());
        assertEquals(1, a.ask().cpusPerTask());
        assertEquals(3600, a.timeLimitSeconds(), "no -t: the partition's MaxTime applies");
    }

    @Test
    void tasksDefaultToOnePerNode() {
        var a = assertInstanceOf(SubmissionPolicy.Accepted.class, policy.check(aRequest().minNodes(3).build()));
        assertEquals(3, a.ask().numTasks());
    }

    @Test
    void memZeroMeansAllOfANodesMemory() {
        var a = assertInstanceOf(SubmissionPolicy.Accepted.class, policy.check(aRequest().memPerNodeMb(0L).build()));
        assertEquals(8192, a.ask().memPerNodeMb());
    }

    @Test
    void severalPartitions_enoughThatOneFits() {
        // 6 CPUs per node fit only in big; debug is listed first but cannot take it.
        var a = assertInstanceOf(SubmissionPolicy.Accepted.class,
                policy.check(aRequest().addPartition("debug").addPartition("big").cpusPerTask(6).build()));
        assertEquals(java.util.List.of("debug", "big"), a.partitions());
    }

    @Test
    void timeLimitZeroMeansUnlimited_whichOnlyAnUnlimitedPartitionTakes() {
        assertInstanceOf(SubmissionPolicy.Rejected.class, policy.check(aRequest().timeLimitSeconds(0L).build()));
        var a = assertInstanceOf(SubmissionPolicy.Accepted.class,
                policy.check(aRequest().addPartition("big").timeLimitSeconds(0L).build()));
        assertEquals(-1, a.timeLimitSeconds());
    }
}
