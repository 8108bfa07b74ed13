package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.SiteScripts;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Credentials;
import dev.gantry.agent.testing.FanoutRig;
import dev.gantry.api.v1.RunStepRequest;
import dev.gantry.api.v1.StepEvent;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job steps on the agents, with real processes: a step's tasks run inside a job running on the node, with the
 * step's variables, and their output and exit codes come back on the stream; credentials are checked as strictly
 * as a launch's, and a step credential cannot launch a job.
 */
class StepAgentTest {

    private static final List<String> TWO = List.of("n1", "n2");
    private static final List<String> PRINT = List.of("sh", "-c", "echo \"$SLURM_STEP_ID $SLURM_PROCID $SLURM_NODEID $SLURMD_NODENAME $SLURM_STEP_NUM_TASKS\"; exit $SLURM_PROCID");

    @Test
    void aStepRunsItsTasksOnAnAllocatedNode_andStreamsTheirOutputAndExits(@TempDir Path tmp) {
        try (FanoutRig rig = new FanoutRig(tmp, 2, SiteScripts.NONE)) {
            rig.first().launchJob(rig.launch(5, "#!/bin/sh\nsleep 60\n", 50, TWO, TWO));

            Map<Integer, String> out = new TreeMap<>();
            Map<Integer, Integer> exits = new TreeMap<>();
            collect(rig.stepAgent("n2").runStep(step(rig, 5, "0", PRINT, List.of(2, 3)).build()), out, exits);

            assertEquals(Map.of(2, "0 2 1 n2 4\n", 3, "0 3 1 n2 4\n"), out);
            assertEquals(Map.of(2, 2, 3, 3), exits);
            // the agent counts the tasks after starting them, and such short tasks can end (and the stream complete) first
            Await.until("n2 counted the step's tasks", () -> rig.node("n2").stepTasks.get() >= 2);
            assertEquals(2, rig.node("n2").stepTasks.get());
        }
    }

    @Test
    void aReplayedStepCredential_isRefused(@TempDir Path tmp) {
        try (FanoutRig rig = new FanoutRig(tmp, 2, SiteScripts.NONE)) {
            rig.first().launchJob(rig.launch(6, "#!/bin/sh\nsleep 60\n", 50, TWO, TWO));
            RunStepRequest request = step(rig, 6, "0", List.of("true"), List.of(1)).build();
            collect(rig.stepAgent("n2").runStep(request), new TreeMap<>(), new TreeMap<>());

            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.stepAgent("n2").runStep(request).hasNext());
            assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().contains("replayed"), e.getStatus().getDescription());
        }
    }

    @Test
    void aStepCredentialForAnotherCommand_orAJobCredential_isRefused(@TempDir Path tmp) {
        try (FanoutRig rig = new FanoutRig(tmp, 2, SiteScripts.NONE)) {
            rig.first().launchJob(rig.launch(7, "#!/bin/sh\nsleep 60\n", 50, TWO, TWO));
            RunStepRequest otherCommand = step(rig, 7, "0", List.of("true"), List.of(1)).clearArgv().addArgv("rm").build();
            RunStepRequest jobCredential = step(rig, 7, "1", List.of("true"), List.of(1))
                    .setCredential(Credentials.aCredential(rig.signer).job(7).nodes("n1", "n2").script("true").sign()).build();

            for (RunStepRequest bad : List.of(otherCommand, jobCredential)) {
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.stepAgent("n2").runStep(bad).hasNext());
                assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
            }
        }
    }

    @Test
    void aStepOfAJobNotRunningHere_isRefused(@TempDir Path tmp) {
        try (FanoutRig rig = new FanoutRig(tmp, 2, SiteScripts.NONE)) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> rig.stepAgent("n2").runStep(step(rig, 8, "0", List.of("true"), List.of(0)).build()).hasNext());
            assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        }
    }

    @Test
    void aStepCredential_cannotLaunchAJob(@TempDir Path tmp) {
        try (FanoutRig rig = new FanoutRig(tmp, 1, SiteScripts.NONE)) {
            String script = "#!/bin/sh\ntrue\n";
            var request = rig.launch(9, script, 50, List.of("n1"), List.of("n1")).toBuilder()
                    .setCredential(Credentials.aCredential(rig.signer).job(9).nodes("n1").script(script).step("0", List.of("x")).sign()).build();
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.first().launchJob(request));
            assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        }
    }

    static RunStepRequest.Builder step(FanoutRig rig, long jobId, String stepId, List<String> argv, List<Integer> taskIds) {
        return RunStepRequest.newBuilder()
                .setCredential(Credentials.aCredential(rig.signer).job(jobId).nodes("n1", "n2").step(stepId, argv).sign())
                .setJobId(jobId).setStepId(stepId).addAllArgv(argv).setWorkDir(rig.workDir.toString())
                .putEnvironment("PATH", "/usr/bin:/bin").setNodeId(1).addAllTaskIds(taskIds).setNumTasks(4)
                .addAllStepNodes(TWO);
    }

    private static void collect(Iterator<StepEvent> events, Map<Integer, String> out, Map<Integer, Integer> exits) {
        List<StepEvent> all = new ArrayList<>();
        events.forEachRemaining(all::add);
        for (StepEvent e : all) {
            if (e.hasOutput()) {
                out.merge(e.getOutput().getTaskId(), e.getOutput().getData().toStringUtf8(), String::concat);
            } else {
                exits.put(e.getExit().getTaskId(), e.getExit().getExitCode());
            }
        }
    }
}
