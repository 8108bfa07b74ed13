package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ResumeJobsRequest;
import dev.gantry.api.v1.SuspendJobsRequest;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * scontrol suspend and resume (https://slurm.schedmd.com/scontrol.html): operators and administrators only; each
 * refused job prints "MESSAGE for job ID" and makes the exit status 1.
 */
class ScontrolSuspendTest {

    private CliHarness cli;

    private void start(boolean operator) {
        FakeController c = new FakeController(ClusterFixtures.NOW)
                .withPartition(aPartition("debug", "n1").setIsDefault(true).build())
                .withJob(aJob(5).build())
                .withJob(running(aJob(7), 60, "n1").build())
                .withJob(running(aJob(8), 60, "n1").build());
        cli = new CliHarness(operator ? c.withOperator("alice") : c);
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void suspendThenResume_sendTheCallerAndTheIds() {
        start(true);
        assertEquals(new Result(0, "", ""), cli.run("scontrol", "suspend", "7,8"));
        SuspendJobsRequest sent = cli.controller().last(SuspendJobsRequest.class);
        assertEquals(List.of(7L, 8L), sent.getJobIdsList());
        assertEquals("alice", sent.getUser());
        assertEquals(JobState.JOB_STATE_SUSPENDED, cli.controller().job(7).orElseThrow().getState());

        assertEquals(new Result(0, "", ""), cli.run("scontrol", "resume", "7"));
        assertEquals(List.of(7L), cli.controller().last(ResumeJobsRequest.class).getJobIdsList());
        assertEquals(JobState.JOB_STATE_RUNNING, cli.controller().job(7).orElseThrow().getState());
    }

    @ParameterizedTest(name = "scontrol {0} is {1}")
    @CsvSource({"su, suspend", "SUSPEND, suspend", "res, resume", "resu, resume"})
    void slurmsAbbreviations(String keyword, String control) {
        start(true);
        if (control.equals("resume")) {
            cli.run("scontrol", "suspend", "7");
        }
        assertEquals(0, cli.run("scontrol", keyword, "7").exitCode());
        assertEquals(control.equals("suspend") ? JobState.JOB_STATE_SUSPENDED : JobState.JOB_STATE_RUNNING,
                cli.controller().job(7).orElseThrow().getState());
    }

    @Test
    void aUser_isRefusedAccess() {
        start(false);
        assertEquals(new Result(1, "", "slurm_suspend error: Access/permission denied\n"),
                cli.run("scontrol", "suspend", "7"));
        assertEquals(new Result(1, "", "slurm_resume error: Access/permission denied\n"),
                cli.run("scontrol", "resume", "7"));
        assertEquals(JobState.JOB_STATE_RUNNING, cli.controller().job(7).orElseThrow().getState());
    }

    @Test
    void refusedJobs_printSlurmsMessage_andTheOthersAreStillChanged() {
        start(true);
        assertEquals(new Result(1, "", "Job is pending execution for job 5\n"),
                cli.run("scontrol", "suspend", "5,7"));
        assertEquals(JobState.JOB_STATE_SUSPENDED, cli.controller().job(7).orElseThrow().getState());
        assertEquals(new Result(1, "", "Requested operation is presently disabled for job 8\n"),
                cli.run("scontrol", "resume", "8"));
        assertEquals(new Result(1, "", "Invalid job id specified for job 99\n"), cli.run("scontrol", "suspend", "99"));
    }
}
