package dev.gantry.agent.grpc;

import dev.gantry.agent.testing.AgentRig;
import java.nio.file.Path;

/** {@link LaunchJobTest}'s rules for an agent that starts batch scripts with the JDK's ProcessBuilder (and setsid). */
class LaunchJobWithProcessBuilderTest extends LaunchJobTest {
    @Override
    AgentRig newRig(Path dir) {
        return AgentRig.withProcessBuilder(dir);
    }
}
