package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.SiteScripts;
import dev.gantry.agent.testing.Credentials;
import dev.gantry.agent.testing.FanoutRig;
import dev.gantry.api.v1.RunStepRequest;
import dev.gantry.common.auth.Identity;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * srun's StepAgent calls carry their user's credential: a step credential alone is not enough, its holder must be the
 * job's user (or root). A caller without a credential is unauthenticated.
 */
class StepCallerTest {

    private static final List<String> ONE = List.of("n1");

    @TempDir
    Path tmp;

    @Test
    void anotherUserWithTheStepCredential_isRefused_andNoCredentialIsUnauthenticated() {
        try (FanoutRig rig = new FanoutRig(tmp, 1, SiteScripts.NONE)) {
            rig.first().launchJob(rig.launch(8, "#!/bin/sh\nsleep 60\n", 50, ONE, ONE));
            RunStepRequest request = StepAgentTest.step(rig, 8, "0", List.of("true"), List.of(0)).setNodeId(0)
                    .clearStepNodes().addStepNodes("n1").build();
            long other = Credentials.OWN_UID == 4242 ? 4243 : 4242;

            StatusRuntimeException denied = assertThrows(StatusRuntimeException.class, () -> rig.stepAgentAs("n1",
                    new Identity("mallory", other, other, List.of(), "local")).runStep(request).hasNext());
            assertEquals(Status.Code.PERMISSION_DENIED, denied.getStatus().getCode());
            assertTrue(denied.getStatus().getDescription().contains("not to mallory"), denied.getStatus().getDescription());

            StatusRuntimeException anonymous = assertThrows(StatusRuntimeException.class,
                    () -> rig.stepAgentAs("n1", null).runStep(request).hasNext());
            assertEquals(Status.Code.UNAUTHENTICATED, anonymous.getStatus().getCode());
        }
    }
}
