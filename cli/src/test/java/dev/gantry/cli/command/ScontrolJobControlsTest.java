package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.HoldJobRequest;
import dev.gantry.api.v1.JobHold;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.ReleaseJobRequest;
import dev.gantry.api.v1.RequeueJobRequest;
import dev.gantry.api.v1.TopJobRequest;
import dev.gantry.api.v1.UpdateJobRequest;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** scontrol hold, uhold, release, requeue, requeuehold, top and update, as https://slurm.schedmd.com/scontrol.html. */
class ScontrolJobControlsTest {

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW)
                .withPartition(aPartition("debug", "n1").setIsDefault(true).build())
                .withPartition(aPartition("long", "n1").build())
                .withJob(aJob(5).build())
                .withJob(aJob(6).build())
                .withJob(running(aJob(7), 60, "n1").build())
                .withJob(aJob(8).setSpec(aJob(8).getSpec().toBuilder().setUser("bob")).build())
                // array 20: tasks 0..2 are jobs 20..22
                .withJob(aJob(20).setArrayJobId(20).setArrayTaskId(0).build())
                .withJob(aJob(21).setArrayJobId(20).setArrayTaskId(1).build())
                .withJob(aJob(22).setArrayJobId(20).setArrayTaskId(2).build()));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    private FakeController controller() {
        return cli.controller();
    }

    @Test
    void hold_aUsersHoldOnEachJob() {
        Result r = cli.run("scontrol", "hold", "5,6");
        assertEquals(new Result(0, "", ""), r);
        HoldJobRequest req = controller().last(HoldJobRequest.class);
        assertEquals(List.of(5L, 6L), req.getJobIdsList());
        assertEquals("alice", req.getUser());
        assertFalse(req.getUserHold());
        assertEquals(JobHold.JOB_HOLD_USER, controller().job(5).orElseThrow().getHold());
        assertEquals("JobHeldUser", controller().job(6).orElseThrow().getReason());
    }

    @Test
    void hold_spaceSeparatedIdsAndJobIdPrefix() {
        assertEquals(0, cli.run("scontrol", "hold", "5", "6").exitCode());
        assertEquals(List.of(5L, 6L), controller().last(HoldJobRequest.class).getJobIdsList());
        assertEquals(0, cli.run("scontrol", "hold", "JobId=5").exitCode());
        assertEquals(List.of(5L), controller().last(HoldJobRequest.class).getJobIdsList());
    }

    @ParameterizedTest(name = "scontrol {0} sends a user hold")
    @CsvSource({"uhold", "holdu", "UHOLD"})
    void uhold(String keyword) {
        assertEquals(0, cli.run("scontrol", keyword, "5").exitCode());
        assertTrue(controller().last(HoldJobRequest.class).getUserHold());
    }

    @Test
    void hold_ofAnArrayIdHoldsEveryTask_andATaskAlone() {
        assertEquals(0, cli.run("scontrol", "hold", "20").exitCode());
        assertEquals(List.of(20L, 21L, 22L), controller().last(HoldJobRequest.class).getJobIdsList());
        assertEquals(0, cli.run("scontrol", "hold", "20_1").exitCode());
        assertEquals(List.of(21L), controller().last(HoldJobRequest.class).getJobIdsList());
        assertEquals(0, cli.run("scontrol", "hold", "20_[0,2]").exitCode());
        assertEquals(List.of(20L, 22L), controller().last(HoldJobRequest.class).getJobIdsList());
    }

    @Test
    void refusals_areReportedPerJob_andTheOthersStillChange() {
        Result r = cli.run("scontrol", "hold", "5,7,99,8");
        assertEquals(1, r.exitCode());
        assertEquals("""
                Job is no longer pending execution for job 7
                Invalid job id specified for job 99
                Access/permission denied for job 8
                """, r.err());
        assertEquals(JobHold.JOB_HOLD_USER, controller().job(5).orElseThrow().getHold());
    }

    @Test
    void aTaskThatDoesNotExistIsReported() {
        Result r = cli.run("scontrol", "hold", "20_7,5");
        assertEquals(1, r.exitCode());
        assertEquals("Invalid job id specified for job 20_7\n", r.err());
        assertEquals(List.of(5L), controller().last(HoldJobRequest.class).getJobIdsList());
    }

    @ParameterizedTest(name = "scontrol hold {0}: malformed")
    @CsvSource({"abc", "5-6", "0", "20_x", "'20_[1'"})
    void malformedJobList(String list) {
        Result r = cli.run("scontrol", "hold", list);
        assertEquals(1, r.exitCode());
        assertTrue(r.err().startsWith("Invalid job id specified for job "), r.err());
        assertEquals(null, controller().last(HoldJobRequest.class));
    }

    @Test
    void aControlWithoutJobsIsTooFewArguments() {
        assertEquals(new Result(1, "", "too few arguments for keyword:release\n"), cli.run("scontrol", "release"));
    }

    @Test
    void release_liftsTheHold() {
        cli.run("scontrol", "hold", "5");
        Result r = cli.run("scontrol", "release", "5");
        assertEquals(new Result(0, "", ""), r);
        assertEquals(List.of(5L), controller().last(ReleaseJobRequest.class).getJobIdsList());
        assertEquals(JobHold.JOB_HOLD_UNSPECIFIED, controller().job(5).orElseThrow().getHold());
    }

    @Test
    void release_ofAnAdministratorsHoldIsDenied() {
        controller().withJob(aJob(9).setHold(JobHold.JOB_HOLD_ADMIN).setReason("JobHeldAdmin").build());
        assertEquals(new Result(1, "", "Access/permission denied for job 9\n"), cli.run("scontrol", "release", "9"));
    }

    @Test
    void requeue_andRequeuehold() {
        assertEquals(0, cli.run("scontrol", "requeue", "7").exitCode());
        assertFalse(controller().last(RequeueJobRequest.class).getHold());
        assertEquals(JobState.JOB_STATE_PENDING, controller().job(7).orElseThrow().getState());
        assertEquals(1, controller().job(7).orElseThrow().getRestartCount());
        assertEquals(new Result(1, "", "Job is pending execution for job 5\n"), cli.run("scontrol", "requeuehold", "5"));
        assertTrue(controller().last(RequeueJobRequest.class).getHold());
    }

    @Test
    void top() {
        assertEquals(0, cli.run("scontrol", "top", "6").exitCode());
        assertEquals(List.of(6L), controller().last(TopJobRequest.class).getJobIdsList());
    }

    @Test
    void update_everyField() {
        Result r = cli.run("scontrol", "update", "JobId=5", "TimeLimit=30", "Partition=long", "NumNodes=2-3",
                "Nice=10", "QOS=high", "Account=physics");
        assertEquals(new Result(0, "", ""), r);
        UpdateJobRequest u = controller().last(UpdateJobRequest.class);
        assertEquals(List.of(5L), u.getJobIdsList());
        assertEquals(1800, u.getTimeLimitSeconds());
        assertEquals(List.of("long"), u.getPartitionsList());
        assertEquals(2, u.getMinNodes());
        assertEquals(3, u.getMaxNodes());
        assertEquals(10, u.getNice());
        assertEquals("high", u.getQos());
        assertEquals("physics", u.getAccount());
        assertFalse(u.hasPriority());
        assertEquals("alice", u.getUser());
    }

    @Test
    void update_dependency_isSentAsGiven_andAnEmptyOneClearsIt() {
        assertEquals(0, cli.run("scontrol", "update", "JobId=5", "Dependency=afterok:3:4").exitCode());
        assertEquals("afterok:3:4", controller().last(UpdateJobRequest.class).getDependency());
        assertEquals(0, cli.run("scontrol", "update", "JobId=5", "Dependency=").exitCode());
        UpdateJobRequest u = controller().last(UpdateJobRequest.class);
        assertTrue(u.hasDependency());
        assertEquals("", u.getDependency());
        assertFalse(controller().last(UpdateJobRequest.class).hasNice());
    }

    @Test
    void update_tagsAreCaseInsensitive_abbreviable_andMayBeSeparateWords() {
        assertEquals(0, cli.run("scontrol", "update", "jobid", "5", "timel=UNLIMITED", "pa=long", "Ni").exitCode());
        UpdateJobRequest u = controller().last(UpdateJobRequest.class);
        assertEquals(-1, u.getTimeLimitSeconds());
        assertEquals(List.of("long"), u.getPartitionsList());
        assertEquals(100, u.getNice(), "a bare Nice is 100");
    }

    @Test
    void update_timeLimitIncrementAndDecrement_countFromTheCurrentLimit() {
        assertEquals(0, cli.run("scontrol", "update", "JobId=5", "TimeLimit=+30").exitCode());
        assertEquals(3600 + 1800, controller().last(UpdateJobRequest.class).getTimeLimitSeconds());
        assertEquals(0, cli.run("scontrol", "update", "JobId=6", "TimeLimit=-10").exitCode());
        assertEquals(3000, controller().last(UpdateJobRequest.class).getTimeLimitSeconds());
        assertEquals(new Result(1, "", "scontrol: error: TimeLimit decrement larger than current time limit (120 > 50)\n"),
                cli.run("scontrol", "update", "JobId=6", "TimeLimit=-120"));
    }

    @Test
    void update_priorityIsForAdministrators() {
        assertEquals(new Result(1, "", "Access/permission denied for job 5\n"),
                cli.run("scontrol", "update", "JobId=5", "Priority=5000"));
        assertEquals(5000, controller().last(UpdateJobRequest.class).getPriority());
    }

    @Test
    void update_ofAnArrayUpdatesEveryTask() {
        assertEquals(0, cli.run("scontrol", "update", "JobId=20", "Nice=5").exitCode());
        assertEquals(List.of(20L, 21L, 22L), controller().last(UpdateJobRequest.class).getJobIdsList());
    }

    @ParameterizedTest(name = "scontrol update {0} {1}")
    @CsvSource(delimiter = '|', value = {
        "JobId=5 | TimeLimit=soon      | scontrol: error: Invalid TimeLimit value",
        "JobId=5 | Priority=-1         | scontrol: error: Invalid Priority value: -1",
        "JobId=5 | Priority=high       | scontrol: error: Invalid Priority value: high",
        "JobId=5 | Nice=2147483646     | scontrol: error: Nice value out of range (+/- 2147483645). Value ignored",
        "JobId=5 | Nice=x              | scontrol: error: Invalid Nice value: x",
        "JobId=5 | NumNodes=0          | scontrol: error: Invalid NumNodes value: 0",
        "JobId=5 | NumNodes=3-2        | scontrol: error: Invalid NumNodes value: 3-2",
        "JobId=5 | Gres=gpu:1          | Update of this parameter is not supported: Gres=gpu:1\\nRequest aborted",
        "JobId=5 | Bogus=1             | Update of this parameter is not supported: Bogus=1\\nRequest aborted",
        "JobId=5 | Partition           | Invalid input: Partition\\nRequest aborted",
        "JobId=5 | JobName=x           | Update of this parameter is not supported: JobName=x\\nRequest aborted",
        "TimeLimit=30 | Nice=1         | scontrol: error: No job ID specified",
        "JobId=abc | Nice=1            | Invalid job id specified for job abc",
    })
    void update_refused_withScontrolsMessages(String first, String second, String err) {
        Result r = cli.run("scontrol", "update", first, second);
        assertEquals(new Result(1, "", err.replace("\\n", "\n") + "\n"), r);
        assertEquals(null, controller().last(UpdateJobRequest.class), "nothing was sent");
    }

    @Test
    void update_withNothingToChange() {
        assertEquals(new Result(1, "", "No changes specified\n"), cli.run("scontrol", "update", "JobId=5"));
    }

    @Test
    void showJobOfAnArrayShowsEveryTask() {
        Result r = cli.run("scontrol", "show", "job", "20");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("JobId=20 ArrayJobId=20 ArrayTaskId=0 JobName=job20\n"), r.out());
        assertTrue(r.out().contains("\n\nJobId=21 ArrayJobId=20 ArrayTaskId=1 JobName=job21\n"), r.out());
        assertTrue(r.out().contains("\n\nJobId=22 ArrayJobId=20 ArrayTaskId=2 "), r.out());
        Result one = cli.run("scontrol", "show", "job", "21");
        assertTrue(one.out().startsWith("JobId=21 ArrayJobId=20 ArrayTaskId=1 ") && !one.out().contains("JobId=22"));
    }

    @Test
    void aFailingControllerIsReported() {
        controller().failingWith(io.grpc.Status.UNAVAILABLE.withDescription("down"));
        Result r = cli.run("scontrol", "hold", "5");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().startsWith("slurm_update error: "), r.err());
    }

    @Test
    void unusedSpecFieldsStayUnset() {
        JobSpec spec = controller().job(5).orElseThrow().getSpec();
        assertEquals("", spec.getAccount());
    }
}
