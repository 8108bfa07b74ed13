package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * When the agent may signal a job that has just started: only once the script's process has exec'ed. A signal
 * that reaches the forked copy of the status-keeping shell before its exec runs the shell's handler and is lost.
 */
class ScriptStartedTest {

    private static final long LEADER = 500;

    static Stream<Arguments> groups() {
        return Stream.of(
                Arguments.of("only the shell: not forked yet", Map.of(LEADER, "sh"), false),
                Arguments.of("leader still in setsid", Map.of(LEADER, "setsid"), false),
                Arguments.of("forked copy of the shell: not exec'ed yet", Map.of(LEADER, "sh", 501L, "sh"), false),
                Arguments.of("the script runs", Map.of(LEADER, "sh", 501L, "slurm_script"), true),
                Arguments.of("the script and its children run", Map.of(LEADER, "sh", 501L, "slurm_script", 502L, "sh"), true),
                Arguments.of("the child vanished while being read", Map.of(LEADER, "sh", 501L, ""), true),
                Arguments.of("the leader is gone", Map.of(501L, "sleep"), true),
                Arguments.of("nothing left", Map.of(), true));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("groups")
    void scriptStarted(String name, Map<Long, String> commands, boolean started) {
        assertEquals(started, BatchLauncher.scriptStarted(LEADER, commands));
    }

    @Test
    void command_isTheExecutablesFileName() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            assertEquals(Optional.of("sleep"), ProcFs.command(sleep.pid()));
        } finally {
            sleep.destroyForcibly().waitFor();
        }
    }
}
