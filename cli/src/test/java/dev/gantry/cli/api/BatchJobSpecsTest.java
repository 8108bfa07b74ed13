package dev.gantry.cli.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.cli.sbatch.BatchControls;
import dev.gantry.cli.sbatch.BatchJob;
import dev.gantry.cli.sbatch.BatchNodeSelection;
import dev.gantry.cli.sbatch.Submitter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** sbatch's BatchJob as the JobSpec the controller receives: what was given set, the rest left to its defaults. */
class BatchJobSpecsTest {

    private static final Submitter ALICE = new Submitter("alice", 1000, 100, "login1", Path.of("/home/alice"),
            Map.of("PATH", "/usr/bin"));

    private static BatchJob minimal() {
        return new BatchJob("job", "#!/bin/sh\n", List.of(), "/home/alice", null, null, List.of(), null, null, null,
                null, null, null, null, null, ALICE, BatchNodeSelection.NONE, BatchControls.NONE);
    }

    @Test
    void everyOptionGiven_isSet() {
        Instant begin = Instant.parse("2026-11-23T08:00:00Z");
        BatchJob request = new BatchJob("train", "#!/bin/sh\ntrue\n", List.of("a1"), "/scratch", "o-%j", "e-%j",
                List.of("gpu", "debug"), 2, 4, 8, 2, 4096L, 512L, 2, 5400L, ALICE,
                new BatchNodeSelection(List.of("gpu:a100:1"), true, true, "intel", "n[1-2]", "n3", true, true),
                new BatchControls("physics", "high", 50, true, begin, "afterok:7", "0-9%2", false));
        JobSpec expected = JobSpec.newBuilder().setName("train").setScript("#!/bin/sh\ntrue\n").addArgv("a1")
                .setWorkDir("/scratch").putEnvironment("PATH", "/usr/bin").setUser("alice").setUid(1000).setGid(100)
                .setSubmitDir("/home/alice").setSubmitHost("login1").setStdoutPath("o-%j").setStderrPath("e-%j")
                .addPartitions("gpu").addPartitions("debug").setMinNodes(2).setMaxNodes(4).setNtasks(8)
                .setCpusPerTask(2).setMemPerNodeMb(4096).setMemPerCpuMb(512).setNtasksPerNode(2)
                .setTimeLimitSeconds(5400).addGres("gpu:a100:1").setExclusive(true).setExclusiveUser(true)
                .setConstraint("intel").setNodelist("n[1-2]").setExclude("n3").setContiguous(true)
                .setOversubscribe(true).setAccount("physics").setQos("high").setNice(50).setHold(true)
                .setBeginTime(Timestamp.newBuilder().setSeconds(begin.getEpochSecond())).setDependency("afterok:7")
                .setArray("0-9%2").setRequeue(false).build();
        assertEquals(expected, BatchJobSpecs.spec(request));
    }

    @Test
    void optionsNotGiven_stayUnset_forTheControllerToDefault() {
        JobSpec spec = BatchJobSpecs.spec(minimal());
        assertFalse(spec.hasMinNodes() || spec.hasMaxNodes() || spec.hasNtasks() || spec.hasCpusPerTask());
        assertFalse(spec.hasMemPerNodeMb() || spec.hasMemPerCpuMb() || spec.hasNtasksPerNode());
        assertFalse(spec.hasTimeLimitSeconds() || spec.hasNice() || spec.hasRequeue() || spec.hasBeginTime());
        assertEquals("", spec.getStdoutPath() + spec.getStderrPath() + spec.getAccount() + spec.getQos()
                + spec.getDependency() + spec.getArray() + spec.getConstraint() + spec.getNodelist() + spec.getExclude());
        assertEquals(List.of(), spec.getPartitionsList());
        assertEquals(List.of(), spec.getGresList());
        assertFalse(spec.getHold() || spec.getExclusive() || spec.getExclusiveUser() || spec.getContiguous()
                || spec.getOversubscribe());
    }

    @Test
    void zeroAndNegativeCounts_areSentAsGiven() {
        BatchJob given = new BatchJob("job", "#!/bin/sh\n", List.of(), "/home/alice", null, null, List.of(), 0,
                null, -1, null, null, null, null, -1L, ALICE, BatchNodeSelection.NONE, BatchControls.NONE);
        JobSpec spec = BatchJobSpecs.spec(given);
        assertEquals(0, spec.getMinNodes());
        assertEquals(-1, spec.getNtasks());
        assertEquals(-1, spec.getTimeLimitSeconds(), "UNLIMITED");
    }

    @Test
    void requeueFalse_andNiceZero_areSet() {
        JobSpec spec = BatchJobSpecs.spec(minimal().withControls(
                new BatchControls(null, null, 0, false, null, null, null, false)));
        assertEquals(true, spec.hasRequeue());
        assertEquals(false, spec.getRequeue());
        assertEquals(true, spec.hasNice());
    }
}
