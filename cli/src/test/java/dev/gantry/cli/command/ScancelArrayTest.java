package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.JobState;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** scancel of array tasks: 123_4 and 123_[1-3] name tasks; an array's id goes to the controller as it is. */
class ScancelArrayTest {

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW)
                .withJob(aJob(5).build())
                .withJob(aJob(20).setArrayJobId(20).setArrayTaskId(0).build())
                .withJob(aJob(21).setArrayJobId(20).setArrayTaskId(1).build())
                .withJob(aJob(22).setArrayJobId(20).setArrayTaskId(2).build()));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void aTaskIsCancelledByItsOwnJobId() {
        assertEquals(new Result(0, "", ""), cli.run("scancel", "20_1", "5"));
        assertEquals(List.of(5L, 21L), cli.controller().lastCancel().getJobIdsList());
        assertEquals(JobState.JOB_STATE_CANCELLED, cli.controller().job(21).orElseThrow().getState());
        assertEquals(JobState.JOB_STATE_PENDING, cli.controller().job(22).orElseThrow().getState());
    }

    @Test
    void aTaskRange() {
        assertEquals(0, cli.run("scancel", "20_[0,2]").exitCode());
        assertEquals(List.of(20L, 22L), cli.controller().lastCancel().getJobIdsList());
    }

    @Test
    void anArrayIdIsSentAsItIs() {
        assertEquals(0, cli.run("scancel", "20").exitCode());
        assertEquals(List.of(20L), cli.controller().lastCancel().getJobIdsList());
    }

    @Test
    void refusalsNameTheTask() {
        cli.run("scancel", "20_1");
        Result again = cli.run("scancel", "20_1", "20_7");
        assertEquals(new Result(1, "", """
                scancel: error: Kill job error on job id 20_7: Invalid job id specified
                scancel: error: Kill job error on job id 20_1: Job/step already completing or completed
                """), again);
        assertEquals(new Result(1, "", "scancel: error: Invalid job id 20_x\n"), cli.run("scancel", "20_x"));
    }
}
