package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void dispatchesOnTheFirstArgumentAndRefusesUnknownCommands() {
        try (CliHarness cli = new CliHarness(new FakeController(ClusterFixtures.NOW))) {
            CliHarness.Result unknown = cli.run("salloc", "-N2");
            assertEquals(1, unknown.exitCode());
            assertTrue(unknown.err().contains("sbatch, scancel, scontrol, sinfo, sprio, squeue, srun, sshare"), unknown.err());
            assertEquals(1, cli.run().exitCode());
            assertEquals(0, cli.run("squeue", "-h").exitCode());
        }
    }

    @Test
    void everyCommandHasHelpAndVersion() {
        try (CliHarness cli = new CliHarness(new FakeController(ClusterFixtures.NOW))) {
            for (String command : Main.COMMANDS.keySet()) {
                CliHarness.Result help = cli.run(command, "--help");
                assertEquals(0, help.exitCode(), command);
                assertTrue(help.out().contains("Usage"), command + ": " + help.out());
                CliHarness.Result version = cli.run(command, "--version");
                assertEquals(0, version.exitCode(), command);
                assertTrue(version.out().startsWith("gantry "), command + ": " + version.out());
            }
        }
    }
}
