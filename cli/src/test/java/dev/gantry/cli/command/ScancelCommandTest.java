package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.JobState;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import dev.gantry.cli.testing.Unreachable;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ScancelCommandTest {

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW)
                .withJob(aJob(1).build())
                .withJob(running(aJob(2), 10, "n1").build())
                .withJob(aJob(3).setState(JobState.JOB_STATE_COMPLETED).build()));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void cancelsEveryJobGivenAsTheCaller() {
        assertEquals(new Result(0, "", ""), cli.run("scancel", "1", "2"));
        assertEquals(List.of(1L, 2L), cli.controller().lastCancel().getJobIdsList());
        assertEquals("alice", cli.controller().lastCancel().getUser());
        assertEquals(JobState.JOB_STATE_CANCELLED, cli.controller().job(1).orElseThrow().getState());
        assertEquals(JobState.JOB_STATE_CANCELLED, cli.controller().job(2).orElseThrow().getState());
    }

    @Test
    void eachRefusedIdIsReportedAndTheStatusIsOne() {
        Result r = cli.run("scancel", "99", "1", "3");
        assertEquals(new Result(1, "", """
                scancel: error: Kill job error on job id 99: Invalid job id specified
                scancel: error: Kill job error on job id 3: Job/step already completing or completed
                """), r);
        assertEquals(JobState.JOB_STATE_CANCELLED, cli.controller().job(1).orElseThrow().getState(),
                "the valid id in the list is still cancelled");
    }

    @ParameterizedTest(name = "{0} is signal {1}")
    @CsvSource({"USR1, 10", "SIGUSR1, 10", "usr2, 12", "TERM, 15", "KILL, 9", "CONT, 18", "9, 9", "64, 64"})
    void signalSendsTheSignalInsteadOfCancelling(String name, int number) {
        assertEquals(new Result(0, "", ""), cli.run("scancel", "--signal=" + name, "2"));
        assertEquals(number, cli.controller().lastCancel().getSignal());
        assertEquals(JobState.JOB_STATE_RUNNING, cli.controller().job(2).orElseThrow().getState(), "signalled, not cancelled");
    }

    @Test
    void signalShortOptions_andAPendingJobIsRefused() {
        Result r = cli.run("scancel", "-f", "-s", "HUP", "2", "1");
        assertEquals(new Result(1, "", "scancel: error: Kill job error on job id 1: Job is pending execution\n"), r);
        assertEquals(1, cli.controller().lastCancel().getSignal());
        assertEquals(JobState.JOB_STATE_PENDING, cli.controller().job(1).orElseThrow().getState());
    }

    @ParameterizedTest(name = "--signal={0}")
    @ValueSource(strings = {"FOO", "0", "65", "SIG", "-1"})
    void anUnknownSignalIsRefusedBeforeAnythingIsSent(String name) {
        assertEquals(new Result(1, "", "scancel: error: Unknown job signal: " + name + "\n"), cli.run("scancel", "--signal=" + name, "2"));
        assertEquals(null, cli.controller().lastCancel());
    }

    @Test
    void argumentErrors() {
        assertEquals(new Result(1, "", "scancel: error: No job identification provided\n"), cli.run("scancel"));
        assertEquals(new Result(1, "", "scancel: error: Invalid job id abc\n"), cli.run("scancel", "abc"));
        assertEquals(new Result(1, "", "scancel: unrecognized option '--nope'\nTry \"scancel --help\" for more information\n"),
                cli.run("scancel", "--nope", "1"));
    }

    @Test
    void controllerNotListening() {
        assertEquals(new Result(1, "", "scancel: error: Unable to contact Gantry controller (connect failure)\n"),
                cli.runWith(Unreachable.closedPort(), "", "scancel", "1"));
    }
}
