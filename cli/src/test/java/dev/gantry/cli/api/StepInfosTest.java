package dev.gantry.cli.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.Step;
import dev.gantry.cli.model.StepInfo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The controller's Step as squeue -s and scontrol show step read it. */
class StepInfosTest {

    @Test
    void aStep_keepsEveryFieldTheReportsRead() {
        Instant start = Instant.parse("2026-11-22T12:00:00.125Z");
        Step step = Step.newBuilder().setJobId(42).setStepId("batch").setName("hostname").setPartition("debug")
                .setUser("alice").setStartTime(ProtoTime.timestamp(start)).addNodes("n1").addNodes("n2").setNumTasks(4)
                .setNumCpus(8).setState("RUNNING").setTimeUsedSeconds(0).addArgv("hostname").build();
        assertEquals(new StepInfo(42, "batch", "hostname", "debug", "alice", start, List.of("n1", "n2"), 4, 8,
                "RUNNING", 0L), StepInfos.step(step));
    }

    @Test
    void anEmptyStep_hasNoStartAndNoRunTime() {
        assertEquals(new StepInfo(0, "", "", "", "", null, List.of(), 0, 0, "", null),
                StepInfos.step(Step.getDefaultInstance()));
    }

    @Test
    void stepsKeepTheControllersOrder() {
        List<StepInfo> steps = StepInfos.steps(List.of(Step.newBuilder().setStepId("batch").build(),
                Step.newBuilder().setStepId("0").build()));
        assertEquals(List.of("batch", "0"), steps.stream().map(StepInfo::stepId).toList());
    }
}
