package dev.gantry.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import org.junit.jupiter.api.Test;

/** srun's refusals before it talks to anything (its steps run end to end in e2e's FanoutE2ETest). */
class SrunCommandTest {

    @Test
    void outsideAnAllocation_srunRefuses_namingWhy() {
        try (CliHarness cli = new CliHarness(new FakeController(ClusterFixtures.NOW))) {
            CliHarness.Result r = cli.run("srun", "hostname");
            assertEquals(1, r.exitCode());
            assertTrue(r.err().startsWith("srun: error: srun runs job steps inside an allocation"), r.err());
        }
    }

    @Test
    void noCommand_isAnError() {
        try (CliHarness cli = new CliHarness(new FakeController(ClusterFixtures.NOW)).withEnv("SLURM_JOB_ID", "7")) {
            CliHarness.Result r = cli.run("srun");
            assertEquals(1, r.exitCode());
            assertEquals("srun: error: No command given to execute.\n", r.err());
        }
    }

    @Test
    void aBadTaskCount_isAnError() {
        try (CliHarness cli = new CliHarness(new FakeController(ClusterFixtures.NOW)).withEnv("SLURM_JOB_ID", "7")) {
            CliHarness.Result r = cli.run("srun", "-n", "zero", "hostname");
            assertEquals(1, r.exitCode());
            assertEquals("srun: error: Invalid numeric value \"zero\" for --ntasks\n", r.err());
        }
    }
}
