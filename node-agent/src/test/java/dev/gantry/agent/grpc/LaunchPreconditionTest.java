package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.testing.AgentRig;
import dev.gantry.api.v1.LaunchJobRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A node that cannot run a job as asked answers FAILED_PRECONDITION with a clear message and runs nothing. */
class LaunchPreconditionTest extends OnAgentRig {

    /** A request whose script would leave a marker file if it ran, and the message expected. */
    record Case(String name, BiFunction<AgentRig, LaunchJobRequest.Builder, LaunchJobRequest.Builder> spoil, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("missing work_dir", (rig, r) -> r.setWorkDir("/nonexistent/gantry-work"),
                        "work_dir /nonexistent/gantry-work: No such file or directory"),
                new Case("work_dir is a file", (rig, r) -> r.setWorkDir(file(rig).toString()),
                        "work_dir " + "%FILE%" + ": Not a directory"),
                new Case("stdout under a regular file", (rig, r) -> r.setStdoutPath(file(rig) + "/out.txt"),
                        "stdout " + "%FILE%" + "/out.txt: Not a directory"),
                new Case("stdout in a missing directory", (rig, r) -> r.setStdoutPath("missing/%j.out"),
                        "stdout %WORK%/missing/7.out: No such file or directory"),
                new Case("stderr is a directory", (rig, r) -> r.setStderrPath(rig.workDir.toString()),
                        "stderr %WORK%: Is a directory"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void unrunnableLaunch_isFailedPrecondition_andStartsNothing(Case c) {
        Path marker = tmp.resolve("ran");
        String script = "#!/bin/bash\ntouch " + marker + "\n";
        LaunchJobRequest request = c.spoil().apply(rig, rig.request(7, script)).build();

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> rig.agent.launchJob(request));

        assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        String expected = c.message().replace("%FILE%", file(rig).toString()).replace("%WORK%", rig.workDir.toString());
        assertEquals(expected, e.getStatus().getDescription());
        assertTrue(rig.supervisor.runningJobIds().isEmpty());
        assertFalse(Files.exists(rig.spoolDir.resolve("job7")), "no script spooled");
        assertTrue(rig.hub.reportAttempts.isEmpty(), "no exit to report");
        assertFalse(Files.exists(marker), "the script did not run");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void afterUnrunnableLaunch_sameJobMayLaunchOnceFixed(Case c) {
        String script = "#!/bin/bash\nexit 0\n";
        assertThrows(StatusRuntimeException.class, () -> rig.agent.launchJob(c.spoil().apply(rig, rig.request(7, script)).build()));

        rig.launch(7, script);

        assertEquals(0, rig.awaitExit(7).getExitCode());
    }

    private static Path file(AgentRig rig) {
        Path f = rig.workDir.resolveSibling("plain-file");
        try {
            if (!Files.exists(f)) {
                Files.writeString(f, "x");
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return f;
    }
}
