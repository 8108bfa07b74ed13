package dev.gantry.agent.grpc;

import dev.gantry.agent.testing.AgentRig;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test class whose every test gets its own {@link AgentRig} (a real agent over gRPC) in a fresh directory. */
abstract class OnAgentRig {

    @TempDir
    Path tmp;

    AgentRig rig;

    @BeforeEach
    void startRig() {
        rig = new AgentRig(tmp);
    }

    @AfterEach
    void stopRig() {
        if (rig != null) { // its start failed
            rig.close();
        }
    }
}
