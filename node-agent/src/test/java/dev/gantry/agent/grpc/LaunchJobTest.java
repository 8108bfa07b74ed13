package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.agent.process.ProcFs;
import dev.gantry.agent.process.ProcStat;
import dev.gantry.agent.testing.AgentRig;
import dev.gantry.agent.testing.Await;
import dev.gantry.api.v1.ReportJobExitRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LaunchJob with real processes: environment, exit code, output files, process group, arguments. */
class LaunchJobTest {

    @TempDir
    Path tmp;

    AgentRig rig;

    @BeforeEach
    void start() {
        rig = newRig(tmp);
    }

    /** The agent under test: posix_spawn(3) where the libc has it (the default). */
    AgentRig newRig(Path dir) {
        return new AgentRig(dir);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void launch_runsScriptWithJobEnvironment_andReportsItsExitCode() {
        rig.launch(42, "#!/bin/bash\nenv\nexit 3\n");

        ReportJobExitRequest exit = rig.awaitExit(42);
        String out = AgentRig.read(rig.outputOf(42));
        assertTrue(out.contains("SLURM_JOB_ID=42\n"), out);
        assertTrue(out.contains("GANTRY_JOB_ID=42\n"), out);
        assertTrue(out.contains("SLURM_JOB_NODELIST=n1\n"), out);
        assertTrue(out.contains("SLURMD_NODENAME=n1\n"), out);
        assertTrue(out.contains("SUBMITTED=yes\n"), "the submit environment is passed on: " + out);
        if (System.getenv("HOME") != null) {
            assertFalse(out.contains("\nHOME="), "the agent's own environment is replaced: " + out);
        }
        assertEquals(3, exit.getExitCode());
        assertEquals(0, exit.getExitSignal());
        assertEquals("n1", exit.getNode());
        assertTrue(exit.hasStartedAt() && exit.hasEndedAt());
    }

    @Test
    void launch_startsScriptAsLeaderOfItsOwnProcessGroupAndSession() {
        long pid = rig.launch(43, "#!/bin/bash\nsleep 600\n").getPid();

        // A launch does not wait for the leader to be in place (RunningJob.settle does, before the first signal):
        // through ProcessBuilder the setsid(1) exec may still be ahead of it when the launch returns.
        Await.until("job 43's leader leads a process group", () -> ProcFs.stat(pid).map(s -> s.pgrp() == pid).orElse(true));
        ProcStat stat = ProcFs.stat(pid).orElseThrow();
        assertEquals(pid, stat.pgrp(), "pgrp of the batch script");
        assertTrue(rig.supervisor.runningJobIds().contains(43L));
    }

    @Test
    void launch_passesArgvAndRunsInWorkDir() {
        rig.agent.launchJob(rig.request(44, "#!/bin/bash\necho \"args=$1,$2 cwd=$(pwd)\"\n").addArgv("a b").addArgv("c").build());

        rig.awaitExit(44);
        assertTrue(AgentRig.read(rig.outputOf(44)).contains("args=a b,c cwd=" + rig.workDir), AgentRig.read(rig.outputOf(44)));
    }

    @Test
    void launch_writesStdoutAndStderrToExpandedPatterns() {
        rig.agent.launchJob(rig.request(45, "#!/bin/bash\necho to-out\necho to-err >&2\n")
                .setStdoutPath("out-%j-%x.txt")
                .setStderrPath(tmp.resolve("err-%u-%N.txt").toString())
                .build());

        rig.awaitExit(45);
        assertEquals("to-out\n", AgentRig.read(rig.workDir.resolve("out-45-job45.txt")));
        assertEquals("to-err\n", AgentRig.read(tmp.resolve("err-alice-n1.txt")));
    }

    @Test
    void launch_withoutStderrPattern_sendsBothStreamsToStdoutFile_truncatingIt() throws Exception {
        Files.writeString(rig.outputOf(46), "old content that must go\n");

        rig.launch(46, "#!/bin/bash\necho one\necho two >&2\necho three\n");

        rig.awaitExit(46);
        assertEquals("one\ntwo\nthree\n", AgentRig.read(rig.outputOf(46)));
    }

    @Test
    void launch_removesSpooledScriptOnceJobEnded() {
        rig.launch(47, "#!/bin/bash\nexit 0\n");

        rig.awaitExit(47);
        assertFalse(Files.exists(rig.spoolDir.resolve("job47")));
    }

    @Test
    void launch_withMalformedFields_isInvalidArgumentNamingTheField() {
        StatusRuntimeException noScript = assertThrows(StatusRuntimeException.class,
                () -> rig.agent.launchJob(rig.request(48, "").build()));
        StatusRuntimeException relative = assertThrows(StatusRuntimeException.class,
                () -> rig.agent.launchJob(rig.request(49, "#!/bin/bash\n").setWorkDir("relative/dir").build()));

        assertEquals(Status.Code.INVALID_ARGUMENT, noScript.getStatus().getCode());
        assertTrue(noScript.getStatus().getDescription().contains("script"), noScript.getStatus().getDescription());
        assertEquals(Status.Code.INVALID_ARGUMENT, relative.getStatus().getCode());
        assertTrue(relative.getStatus().getDescription().contains("work_dir"), relative.getStatus().getDescription());
        assertTrue(rig.supervisor.runningJobIds().isEmpty());
    }
}
