package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.agent.testing.Cgroups;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.common.credential.CredentialKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An agent restart leaves its jobs running: the restarted agent reads its job table, re-attaches to the jobs
 * still running, reports the ones that ended meanwhile with their real exit status, and re-sends the exit reports
 * its predecessor had not delivered. (The "restart" is a second agent over the same spool directory and keys,
 * after the first was abandoned without terminating anything.)
 */
class AdoptionTest {

    @TempDir
    Path tmp;

    static List<String> modes() {
        return Cgroups.modes();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void restartedAgent_readoptsRunningJobs_andReportsTheOnesThatEndedMeanwhile(String mode) throws Exception {
        KeyPair keys = CredentialKeys.generate();
        AgentRig first = new AgentRig(tmp, JobTelemetry.NONE, Cgroups.of(mode, tmp), keys);
        long sleeper = first.launch(90, "#!/bin/bash\necho ready\nsleep 600\n").getPid();
        first.launch(91, "#!/bin/bash\nwhile [ ! -e go ]; do sleep 0.05; done\nexit 3\n");
        first.awaitOutput(90, "ready");

        first.abandon();
        Files.createFile(first.workDir.resolve("go")); // job 91 ends while no agent runs

        try (AgentRig second = new AgentRig(tmp, JobTelemetry.NONE, Cgroups.of(mode, tmp), keys)) {
            assertEquals(List.of(90L, 91L), second.adopted);
            ReportJobExitRequest ended = second.awaitExit(91);
            assertEquals(3, ended.getExitCode(), "the exit status its status-keeping shell recorded");
            assertTrue(second.supervisor.runningJobIds().contains(90L), "job 90 is listed for the registration");
            assertTrue(ProcFs.stat(sleeper).filter(p -> p.isLive()).isPresent(), "job 90 kept running");

            second.terminate(90, 30);
            ReportJobExitRequest killed = second.awaitExit(90);

            assertEquals(15, killed.getExitSignal());
            Await.until("job 90's processes are gone", () -> ProcFs.stat(sleeper).filter(p -> p.isLive()).isEmpty());
            // JobCompletion reports the exit before it takes the job out of the table on disk
            Await.until("the job table is empty once both jobs ended", () -> second.table.load().isEmpty());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void exitReportNotAcknowledgedBeforeARestart_isSentByTheRestartedAgent(String mode) {
        KeyPair keys = CredentialKeys.generate();
        AgentRig first = new AgentRig(tmp, JobTelemetry.NONE, Cgroups.of(mode, tmp), keys);
        first.hub.down(true);
        first.launch(92, "#!/bin/bash\nexit 7\n");
        Await.until("job 92's exit was attempted", () -> first.hub.reportAttempts.stream().anyMatch(r -> r.getJobId() == 92));
        first.abandon();

        try (AgentRig second = new AgentRig(tmp, JobTelemetry.NONE, Cgroups.of(mode, tmp), keys)) {
            assertTrue(second.adopted.isEmpty());
            ReportJobExitRequest exit = second.awaitExit(92);

            assertEquals(7, exit.getExitCode());
            Await.until("the journal forgets the acknowledged exit", () -> second.table.unacknowledged().isEmpty());
            assertFalse(second.hub.exits.isEmpty());
        }
    }
}
