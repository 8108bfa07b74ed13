package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.JobTelemetry;
import dev.gantry.agent.process.ProcessGroupContainment;
import dev.gantry.agent.process.SiteScripts;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.common.credential.CredentialKeys;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prolog before the job's script, epilog after its last process; a failing prolog fails the launch. */
class PrologEpilogTest {

    @TempDir
    Path tmp;

    AgentRig rig;

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void prologRunsBeforeTheScript_andEpilogAfterItsLastProcess_withTheJobsVariables() throws IOException {
        Path log = tmp.resolve("site.log");
        start(program("prolog", "echo \"prolog $SLURM_JOB_ID $SLURM_JOB_PARTITION\" >> " + log),
                program("epilog", "echo \"epilog $SLURM_JOB_ID\" >> " + log));

        rig.launch(120, "#!/bin/bash\necho \"job sees: $(cat " + log + ")\"\n");

        assertEquals(0, rig.awaitExit(120).getExitCode());
        assertEquals("job sees: prolog 120 debug\n", AgentRig.read(rig.outputOf(120)));
        assertEquals("prolog 120 debug\nepilog 120\n", Files.readString(log), "epilog ran before the exit was reported");
    }

    @Test
    void failingProlog_failsTheLaunchWithItsReason_andNothingRuns() throws IOException {
        start(program("prolog", "echo 'scratch not mounted'; exit 3"), null);

        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> rig.launch(121, "#!/bin/bash\ntouch " + tmp.resolve("ran") + "\n"));

        assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("failed with exit 3: scratch not mounted"), e.getStatus().getDescription());
        Await.pause(200);
        assertTrue(Files.notExists(tmp.resolve("ran")));
        assertTrue(rig.supervisor.runningJobIds().isEmpty());
    }

    private void start(Path prolog, Path epilog) {
        SiteScripts scripts = new SiteScripts(Optional.ofNullable(prolog), Optional.ofNullable(epilog), Duration.ofSeconds(30));
        rig = new AgentRig(tmp, JobTelemetry.NONE, new ProcessGroupContainment(), CredentialKeys.generate(), scripts);
    }

    private Path program(String name, String body) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }
}
