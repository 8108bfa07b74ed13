package dev.gantry.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.CreateTokenRequest;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** scontrol token prints the controller's token as SLURM_JWT=…, as Slurm's does. */
class ScontrolTokenTest {

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void printsTheTokenAsSlurmJwt_withTheLifespanAsked() {
        assertEquals(new Result(0, "SLURM_JWT=token-alice-1800\n", ""), cli.run("scontrol", "token"));
        assertEquals(new Result(0, "SLURM_JWT=token-alice-60\n", ""), cli.run("scontrol", "token", "lifespan=60"));
        assertEquals(60, cli.controller().last(CreateTokenRequest.class).getLifespanSeconds());
    }

    @Test
    void anotherUsersToken_isRefusedAsSlurmPrintsIt() {
        assertEquals(new Result(1, "", "scontrol: error: slurm_fetch_token: username: only an administrator may get a token "
                + "for another user (root)\nError fetching token\n"), cli.run("scontrol", "token", "username=root"));
    }

    @Test
    void aLifespanThatIsNotSeconds_orAnUnknownParameter_isRefused() {
        assertEquals(new Result(1, "", "scontrol: error: Invalid lifespan value: abc (seconds expected)\n"),
                cli.run("scontrol", "token", "lifespan=abc"));
        assertEquals(new Result(1, "", "scontrol: error: Invalid parameter for token: forever\n"),
                cli.run("scontrol", "token", "forever"));
    }
}
