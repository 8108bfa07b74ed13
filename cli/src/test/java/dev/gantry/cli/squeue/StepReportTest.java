package dev.gantry.cli.squeue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Step;
import dev.gantry.cli.api.StepInfos;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepReportTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    @Test
    void slurmsDefaultStepFormat_rightAligned_nodeListLast() {
        List<String> lines = StepReport.lines(StepInfos.steps(List.of(
                step(42, "batch", "batch", 125, List.of("n1")),
                step(42, "0", "averyverylongname", 3_725, List.of("n1", "n2", "n3")))), NOW, true);

        assertEquals(List.of(
                "         STEPID     NAME PARTITION     USER      TIME NODELIST",
                "       42.batch    batch     debug    alice      2:05 n1",
                "           42.0 averyver     debug    alice   1:02:05 n[1-3]"), lines);
    }

    @Test
    void aStepsTime_isTheControllersRunTime_timeSuspendedLeftOut() {
        // started 125 s ago; its job was suspended for 100 s of them
        Step step = step(42, "0", "sleep", 125, List.of("n1")).toBuilder().setTimeUsedSeconds(25).build();
        assertEquals(List.of("           42.0    sleep     debug    alice      0:25 n1"),
                StepReport.lines(List.of(StepInfos.step(step)), NOW, false));
    }

    @Test
    void noHeader_withDashH() {
        assertEquals(List.of(), StepReport.lines(List.of(), NOW, false));
    }

    private static Step step(long job, String id, String name, long secondsAgo, List<String> nodes) {
        return Step.newBuilder().setJobId(job).setStepId(id).setName(name).setPartition("debug").setUser("alice")
                .setStartTime(Timestamp.newBuilder().setSeconds(NOW.getEpochSecond() - secondsAgo)).addAllNodes(nodes).build();
    }
}
