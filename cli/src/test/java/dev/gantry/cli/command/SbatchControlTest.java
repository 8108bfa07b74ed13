package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aNode;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** sbatch's job-control options: -A -q --nice -H -b -d -a --requeue/--no-requeue, on the command line and in #SBATCH. */
class SbatchControlTest {

    @TempDir
    Path dir;

    private CliHarness cli;

    @BeforeEach
    void start() throws IOException {
        FakeController controller = new FakeController(ClusterFixtures.NOW)
                .withPartition(aPartition("debug", "n1").setIsDefault(true).build())
                .withNode(aNode("n1", "debug").build());
        cli = new CliHarness(controller).inDirectory(dir);
        Files.writeString(dir.resolve("job.sh"), "#!/bin/sh\ntrue\n");
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    private JobSpec submitted() {
        return cli.controller().lastSubmit().getSpec();
    }

    @Test
    void everyOptionReachesTheController() {
        Result r = cli.run("sbatch", "-A", "physics", "-q", "high", "--nice=50", "-H", "-b", "now+1hour",
                "-d", "afterok:12:13", "-a", "0-99%10", "--requeue", "job.sh");
        assertEquals(0, r.exitCode(), r.err());
        JobSpec s = submitted();
        assertEquals("physics", s.getAccount());
        assertEquals("high", s.getQos());
        assertEquals(50, s.getNice());
        assertTrue(s.getHold());
        assertEquals(ClusterFixtures.NOW.plusSeconds(3600).getEpochSecond(), s.getBeginTime().getSeconds(),
                "--begin is resolved against the client's clock");
        assertEquals("afterok:12:13", s.getDependency());
        assertEquals("0-99%10", s.getArray());
        assertTrue(s.hasRequeue());
        assertTrue(s.getRequeue());
    }

    @Test
    void longFormsWork() {
        Result r = cli.run("sbatch", "--account=bio", "--qos=low", "--hold", "--begin=2027-01-02T03:04:05",
                "--dependency=singleton", "--array=1,3,5-7", "--no-requeue", "job.sh");
        assertEquals(0, r.exitCode(), r.err());
        JobSpec s = submitted();
        assertEquals("bio", s.getAccount());
        assertEquals("low", s.getQos());
        assertTrue(s.getHold());
        assertEquals(Instant.parse("2027-01-02T03:04:05Z").getEpochSecond(), s.getBeginTime().getSeconds());
        assertEquals("singleton", s.getDependency());
        assertEquals("1,3,5-7", s.getArray());
        assertTrue(s.hasRequeue());
        assertFalse(s.getRequeue());
    }

    @Test
    void nothingGivenLeavesTheControllerDefaults() {
        cli.run("sbatch", "job.sh");
        JobSpec s = submitted();
        assertEquals("", s.getAccount());
        assertFalse(s.hasNice());
        assertFalse(s.getHold());
        assertFalse(s.hasBeginTime());
        assertEquals("", s.getDependency());
        assertEquals("", s.getArray());
        assertFalse(s.hasRequeue(), "unset: JobRequeue decides");
    }

    @Test
    void anArrayWithoutOutputWritesToSlurmsArrayDefault() {
        cli.run("sbatch", "--array=0-3", "job.sh");
        assertEquals("slurm-%A_%a.out", submitted().getStdoutPath());
        cli.run("sbatch", "--array=0-3", "-o", "mine-%a.log", "job.sh");
        assertEquals("mine-%a.log", submitted().getStdoutPath());
        cli.run("sbatch", "job.sh");
        assertEquals("", submitted().getStdoutPath(), "not an array: the agent's slurm-%j.out");
    }

    @Test
    void bareNiceIs100() {
        cli.run("sbatch", "--nice", "job.sh");
        assertEquals(100, submitted().getNice());
    }

    @Test
    void negativeNiceIsSentForTheControllerToJudge() {
        cli.run("sbatch", "--nice=-10", "job.sh");
        assertEquals(-10, submitted().getNice());
    }

    @Test
    void theLaterOfRequeueAndNoRequeueWins() {
        cli.run("sbatch", "--no-requeue", "--requeue", "job.sh");
        assertTrue(submitted().getRequeue());
        cli.run("sbatch", "--requeue", "--no-requeue", "job.sh");
        assertFalse(submitted().getRequeue());
    }

    @Test
    void sbatchDirectivesSetThem_andTheCommandLineWins() throws IOException {
        Files.writeString(dir.resolve("d.sh"), """
                #!/bin/sh
                #SBATCH -A fromscript
                #SBATCH --qos=scriptqos
                #SBATCH --array=0-3
                #SBATCH --dependency=afterany:5
                #SBATCH --begin=16:00
                #SBATCH --nice=7
                #SBATCH --hold
                #SBATCH --no-requeue
                true
                """);
        Result r = cli.run("sbatch", "-q", "cliqos", "--requeue", "d.sh");
        assertEquals(0, r.exitCode(), r.err());
        JobSpec s = submitted();
        assertEquals("fromscript", s.getAccount());
        assertEquals("cliqos", s.getQos());
        assertEquals("0-3", s.getArray());
        assertEquals("afterany:5", s.getDependency());
        assertEquals(Instant.parse("2026-11-22T16:00:00Z").getEpochSecond(), s.getBeginTime().getSeconds());
        assertEquals(7, s.getNice());
        assertTrue(s.getHold());
        assertTrue(s.getRequeue(), "the command line wins");
    }

    @ParameterizedTest(name = "sbatch {0} {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "--begin=someday | '' | sbatch: error: Invalid time specification (pos=0): someday\\nsbatch: error: Invalid --begin specification\\n",
        "-b | 25:00 | sbatch: error: Invalid time specification (pos=0): 25:00\\nsbatch: error: Invalid --begin specification\\n",
        "--nice=2147483646 | '' | sbatch: error: Nice value out of range (+/- 2147483645)\\n",
        "--nice=-3000000000 | '' | sbatch: error: Nice value out of range (+/- 2147483645)\\n",
        "--nice=lots | '' | sbatch: error: Invalid --nice value: lots\\n",
    })
    void refusedLocally_withSlurmsMessage(String option, String value, String err) {
        Result r = value.isEmpty() ? cli.run("sbatch", option, "job.sh") : cli.run("sbatch", option, value, "job.sh");
        assertEquals(new Result(1, "", err.replace("\\n", "\n")), r);
        assertNull(cli.controller().lastSubmit(), "nothing was sent");
    }

    @Test
    void aMissingArgumentIsAUsageError() {
        Result r = cli.run("sbatch", "job.sh", "-d");
        assertEquals(0, r.exitCode(), "after the script, -d is the script's argument");
        Result missing = cli.run("sbatch", "-d");
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().startsWith("sbatch: option requires an argument -- 'd'"), missing.err());
    }

    @Test
    void theControllersRefusalIsPrintedAsSlurmDoes() {
        cli.controller().failingWith(io.grpc.Status.INVALID_ARGUMENT.withDescription(
                "dependency: Job dependency problem: --dependency=afterok:99: job 99 does not exist"));
        Result r = cli.run("sbatch", "-d", "afterok:99", "job.sh");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().startsWith("sbatch: error: Batch job submission failed: "), r.err());
        assertTrue(r.err().contains("Job dependency problem"), r.err());
    }
}
