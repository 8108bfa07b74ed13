package dev.gantry.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** scontrol write batch_script, with what Slurm 22.05 prints for each case (checked on the peer). */
class ScontrolBatchScriptTest {

    static final String SCRIPT = "#!/bin/sh\n#secret=hunter2\nsleep 100\n";

    @TempDir
    Path dir;
    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW)
                .withJob(Job.newBuilder().setJobId(1).setSpec(JobSpec.newBuilder().setUser("alice").setScript(SCRIPT)).build())
                .withJob(Job.newBuilder().setJobId(2).setSpec(JobSpec.newBuilder().setUser("bob").setScript("#!/bin/sh\n")).build()))
                .inDirectory(dir);
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void writesSlurmJobidSh_inTheCurrentDirectory_bydefault() throws Exception {
        assertEquals(new Result(0, "batch script for job 1 written to slurm-1.sh\n", ""),
                cli.run("scontrol", "write", "batch_script", "1"));
        assertEquals(SCRIPT, Files.readString(dir.resolve("slurm-1.sh")));
    }

    @Test
    void dashWritesToStdout_aFileNameWritesThere_andQuietSaysNothing() throws Exception {
        assertEquals(new Result(0, SCRIPT, ""), cli.run("scontrol", "write", "batch_script", "1", "-"));
        assertEquals(new Result(0, "", ""), cli.run("scontrol", "-Q", "write", "batch", "1", "mine.sh"));
        assertEquals(SCRIPT, Files.readString(dir.resolve("mine.sh")));
    }

    @Test
    void anotherUsersScript_isInvalidUserId_andNoFileIsLeft() {
        assertEquals(new Result(1, "", "job script retrieval failed: Invalid user id\n"),
                cli.run("scontrol", "write", "batch_script", "2"));
        assertFalse(Files.exists(dir.resolve("slurm-2.sh")));
    }

    @Test
    void anUnknownOrMalformedJobId_isInvalidJobId() {
        assertEquals(new Result(1, "", "job script retrieval failed: Invalid job id specified\n"),
                cli.run("scontrol", "write", "batch_script", "99", "-"));
        assertEquals(new Result(1, "", "job script retrieval failed: Invalid job id specified\n"),
                cli.run("scontrol", "write", "batch_script", "abc", "-"));
    }

    @Test
    void argumentErrors_asSlurmWordsThem() {
        assertEquals(new Result(1, "", "too few arguments for keyword:write\n"), cli.run("scontrol", "write"));
        assertEquals(new Result(1, "", "too many arguments for keyword:write\n"),
                cli.run("scontrol", "write", "batch_script", "1", "a", "b"));
        assertEquals(new Result(1, "", "invalid write argument:bat\n"), cli.run("scontrol", "write", "bat", "1"));
    }
}
