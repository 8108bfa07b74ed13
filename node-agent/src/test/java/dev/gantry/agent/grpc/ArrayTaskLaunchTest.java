package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.agent.testing.AgentRig;
import dev.gantry.api.v1.ArrayTask;
import org.junit.jupiter.api.Test;

/** LaunchJob of a job array task over gRPC: its SLURM_ARRAY_* and accounting variables, and %A/%a in its output name. */
class ArrayTaskLaunchTest extends OnAgentRig {

    private static final String PRINT = "#!/bin/sh\n"
            + "echo \"$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN"
            + " $SLURM_ARRAY_TASK_MAX $SLURM_ARRAY_TASK_STEP $GANTRY_ARRAY_TASK_ID\"\n"
            + "echo \"${SLURM_JOB_ACCOUNT-none} ${SLURM_JOB_QOS-none} ${SLURM_RESTART_COUNT-none}\"\n";

    @Test
    void arrayTask_seesItsPlaceInTheArray_andWritesToItsArrayOutputName() {
        rig.agent.launchJob(rig.request(123, PRINT)
                .setStdoutPath("slurm-%A_%a.out")
                .setArray(ArrayTask.newBuilder().setArrayJobId(120).setTaskId(6).setTaskCount(4).setTaskMin(0)
                        .setTaskMax(9).setTaskStep(3))
                .setAccount("physics").setQos("high").setRestartCount(1)
                .build());

        assertEquals(0, rig.awaitExit(123).getExitCode());
        assertEquals("120 6 4 0 9 3 6\nphysics high 1\n", AgentRig.read(rig.workDir.resolve("slurm-120_6.out")));
    }

    @Test
    void plainJob_hasNoArrayVariables_andItsArrayOutputNameUsesItsJobId() {
        rig.agent.launchJob(rig.request(124, PRINT).setStdoutPath("slurm-%A_%a.out").build());

        assertEquals(0, rig.awaitExit(124).getExitCode());
        assertEquals("      \nnone none none\n", AgentRig.read(rig.workDir.resolve("slurm-124_4294967294.out")));
    }
}
