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
import dev.gantry.cli.testing.Unreachable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SbatchCommandTest {

    @TempDir
    Path dir;

    private CliHarness cli;

    @BeforeEach
    void start() {
        FakeController controller = new FakeController(ClusterFixtures.NOW)
                .withPartition(aPartition("debug", "n1").setIsDefault(true).build())
                .withPartition(aPartition("long", "n1").build())
                .withNode(aNode("n1", "debug", "long").build());
        cli = new CliHarness(controller).inDirectory(dir).withEnv("PROJECT", "x");
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    private Path script(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private JobSpec submitted() {
        return cli.controller().lastSubmit().getSpec();
    }

    @Test
    void submitsAScriptAndPrintsTheJobId() throws IOException {
        script("run.sh", "#!/bin/bash\n#SBATCH -N 2\n#SBATCH --job-name=fromScript\n#SBATCH -t 30\nsrun hostname\n");
        Result r = cli.run("sbatch", "-N", "3", "-p", "long", "run.sh", "--not-an-option", "arg2");
        assertEquals(new Result(0, "Submitted batch job 1\n", ""), r);
        JobSpec spec = submitted();
        assertEquals(3, spec.getMinNodes(), "the command line overrides #SBATCH");
        assertEquals("fromScript", spec.getName());
        assertEquals(1800, spec.getTimeLimitSeconds());
        assertEquals(List.of("long"), spec.getPartitionsList());
        assertEquals(List.of("--not-an-option", "arg2"), spec.getArgvList(), "everything after the script is its own");
        assertEquals("alice", spec.getUser());
        assertEquals(1000, spec.getUid());
        assertEquals("login1", spec.getSubmitHost());
        assertEquals(dir.toString(), spec.getSubmitDir());
        assertEquals(dir.toString(), spec.getWorkDir());
        assertEquals("x", spec.getEnvironmentMap().get("PROJECT"));
        assertTrue(spec.getScript().startsWith("#!/bin/bash\n#SBATCH -N 2\n"));
    }

    @Test
    void theJobIsNamedAfterTheScriptFile() throws IOException {
        script("train.sbatch", "#!/bin/sh\ntrue\n");
        cli.run("sbatch", "train.sbatch");
        assertEquals("train.sbatch", submitted().getName());
    }

    @Test
    void parsablePrintsOnlyTheId() throws IOException {
        script("run.sh", "#!/bin/sh\n#SBATCH --parsable\ntrue\n");
        assertEquals(new Result(0, "1\n", ""), cli.run("sbatch", "run.sh"));
        assertEquals(new Result(0, "2\n", ""), cli.run("sbatch", "--parsable", "run.sh"));
    }

    @Test
    void wrapSubmitsAGeneratedScriptNamedWrap() {
        assertEquals(0, cli.run("sbatch", "--wrap=echo hello", "-o", "/tmp/o").exitCode());
        assertEquals("#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho hello\n", submitted().getScript());
        assertEquals("wrap", submitted().getName());
        assertEquals("/tmp/o", submitted().getStdoutPath());
    }

    @Test
    void withoutAScriptItReadsStandardInput() {
        Result r = cli.runWithInput("#!/bin/sh\n#SBATCH -n 2\necho from stdin\n", "sbatch");
        assertEquals(0, r.exitCode());
        assertEquals("sbatch", submitted().getName());
        assertEquals(2, submitted().getNtasks());
    }

    @Test
    void aScriptWithoutInterpreterIsRefused() throws IOException {
        script("bad.sh", "echo no shebang\n");
        Result r = cli.run("sbatch", "bad.sh");
        assertEquals(new Result(1, "", """
                sbatch: error: This does not look like a batch script.  The first
                sbatch: error: line must start with #! followed by the path to an interpreter.
                sbatch: error: For instance: #!/bin/sh
                """), r);
        assertNull(cli.controller().lastSubmit());
    }

    @Test
    void aMissingScriptIsReported() {
        assertEquals(new Result(1, "", "sbatch: error: Unable to open file nope.sh\n"), cli.run("sbatch", "nope.sh"));
    }

    @ParameterizedTest(name = "sbatch {0} fails with \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "--foo           | sbatch: unrecognized option '--foo'",
        "--foo=bar       | sbatch: unrecognized option '--foo=bar'",
        "-Z              | sbatch: invalid option -- 'Z'",
        "--nodes         | sbatch: option '--nodes' requires an argument",
        "-N              | sbatch: option requires an argument -- 'N'",
    })
    void usageMistakesAsGetoptReportsThem(String arg, String message) {
        Result r = cli.run("sbatch", arg);
        assertEquals(new Result(1, "", message + "\nTry \"sbatch --help\" for more information\n"), r);
    }

    @ParameterizedTest(name = "sbatch {0} {1} fails with \"{2}\"")
    @CsvSource(delimiter = '|', value = {
        "-N      | x     | sbatch: error: Invalid numeric value \"x\" for --nodes.",
        "--ntasks | 2.5  | sbatch: error: Invalid numeric value \"2.5\" for --ntasks.",
        "-t      | later | sbatch: error: Invalid --time specification",
        "--mem   | 4GB   | sbatch: error: Invalid --mem specification",
        "--mem-per-cpu | 1X | sbatch: error: Invalid --mem-per-cpu specification",
        "--gres  | gpu:x:y:z | sbatch: error: Invalid generic resource (gres) specification",
        "-w      | n[1-  | sbatch: error: Invalid node name specified for --nodelist: n[1-",
    })
    void unparsableValuesAreRefusedBeforeSubmitting(String option, String value, String message) {
        Result r = cli.run("sbatch", option, value, "--wrap", "true");
        assertEquals(new Result(1, "", message + "\n"), r);
        assertNull(cli.controller().lastSubmit());
    }

    @ParameterizedTest(name = "sbatch {0} {1} is sent and refused: {2}")
    @CsvSource(delimiter = '|', value = {
        "-N | 0  | min_nodes: must be at least 1, got 0",
        "-n | -1 | ntasks: must be at least 1, got -1",
        "-c | 0  | cpus_per_task: must be at least 1, got 0",
        "-p | nope | partitions: invalid partition specified: nope",
    })
    void theControllerRefusesBadCountsByName(String option, String value, String message) {
        Result r = cli.run("sbatch", option, value, "--wrap", "true");
        assertEquals(new Result(1, "", "sbatch: error: Batch job submission failed: " + message + "\n"), r);
        assertTrue(cli.controller().lastSubmit() != null, "the value was sent, not fixed by the client");
    }

    @Test
    void memAndMemPerCpuTogetherAreRefusedBeforeSubmitting() {
        Result r = cli.run("sbatch", "--mem=1G", "--mem-per-cpu=512", "--wrap", "true");
        assertEquals(new Result(1, "", "sbatch: error: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n"), r);
        assertNull(cli.controller().lastSubmit());
    }

    @Test
    void badDirectivesAreReported() throws IOException {
        script("a.sh", "#!/bin/sh\n#SBATCH -N 2 stray\ntrue\n");
        assertEquals(new Result(1, "", "sbatch: error: Invalid directive found in batch script: stray\n"),
                cli.run("sbatch", "a.sh"));
        script("b.sh", "#!/bin/sh\n#SBATCH --bogus\ntrue\n");
        assertEquals(new Result(1, "", "sbatch: unrecognized option '--bogus'\nTry \"sbatch --help\" for more information\n"),
                cli.run("sbatch", "b.sh"));
        script("c.sh", "#!/bin/sh\n#SBATCH -n many\ntrue\n");
        assertEquals(new Result(1, "", "sbatch: error: Invalid numeric value \"many\" for --ntasks.\n"),
                cli.run("sbatch", "c.sh"));
        assertNull(cli.controller().lastSubmit());
    }

    @Test
    void wrapAndAScriptTogetherAreRefused() throws IOException {
        script("run.sh", "#!/bin/sh\ntrue\n");
        assertEquals(new Result(1, "", "sbatch: error: Script arguments not permitted with --wrap option\n"),
                cli.run("sbatch", "--wrap", "true", "run.sh"));
    }

    @Test
    void noControllerConfigured() {
        Result r = cli.runWith(Unreachable.notConfigured(), "", "sbatch", "--wrap", "true");
        assertEquals(new Result(1, "", "sbatch: error: cannot find the Gantry controller: set GANTRY_CONTROLLER=host:port "
                + "or start a local cluster with bin/gantry up\n"), r);
    }

    @Test
    void controllerNotListening() {
        Result r = cli.runWith(Unreachable.closedPort(), "", "sbatch", "--wrap", "true");
        assertEquals(new Result(1, "",
                "sbatch: error: Batch job submission failed: Unable to contact Gantry controller (connect failure)\n"), r);
    }

    @Test
    void helpAndVersion() {
        Result help = cli.run("sbatch", "--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().contains("--job-name"), help.out());
        Result version = cli.run("sbatch", "-V");
        assertEquals(0, version.exitCode());
        assertTrue(version.out().startsWith("gantry "), version.out());
        assertFalse(version.out().isBlank());
    }
}
