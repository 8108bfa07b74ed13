package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobState;
import dev.gantry.api.v1.JobSpec;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import dev.gantry.cli.testing.Unreachable;
import io.grpc.Status;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SqueueCommandTest {

    private CliHarness cli;

    @BeforeEach
    void start() {
        FakeController controller = new FakeController(ClusterFixtures.NOW)
                .withJob(running(aJob(1), 65, "n1", "n2").build())
                .withJob(aJob(2).setReason("Resources").setPriority(500).build())
                .withJob(aJob(3).setPartition("long").setSpec(JobSpec.newBuilder().setName("bobjob").setUser("bob")).build())
                .withJob(aJob(4).setState(JobState.JOB_STATE_COMPLETED).build());
        cli = new CliHarness(controller);
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void defaultReport() {
        Result r = cli.run("squeue");
        assertEquals(new Result(0, """
                             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)
                                 2     debug     job2    alice PD       0:00      1 (Resources)
                                 1     debug     job1    alice  R       1:05      2 n[1-2]
                                 3      long   bobjob      bob PD       0:00      1 (Priority)
                """, ""), r);
    }

    @Test
    void formatNoHeaderAndSort() {
        Result r = cli.run("squeue", "-h", "-o", "%i|%u|%t", "-S", "-i");
        assertEquals(new Result(0, "3|bob|PD\n2|alice|PD\n1|alice|R\n", ""), r);
    }

    @Test
    void filtersGoToTheControllerAndAreAppliedAgain() {
        Result r = cli.run("squeue", "-h", "-o", "%i", "-u", "alice", "-t", "pd,r", "-p", "debug");
        assertEquals(new Result(0, "2\n1\n", ""), r);
        var request = cli.controller().lastListJobs();
        assertEquals(List.of("alice"), request.getUsersList());
        assertEquals(List.of("debug"), request.getPartitionsList());
        assertEquals(List.of(JobState.JOB_STATE_PENDING, JobState.JOB_STATE_RUNNING), request.getStatesList());
    }

    @Test
    void aQueueLongerThanAPage_isReadAsPagesOnOneStream_inSqueuesView() {
        FakeController big = bigQueue();
        try (CliHarness many = new CliHarness(big)) {
            assertEveryJobListed(many.run("squeue", "-h", "-o", "%i", "-S", "i"));
            assertEquals(1, big.streamJobsCalls(), "one stream");
            assertEquals(0, big.listJobsCalls());
            assertEquals(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY, big.lastListJobs().getView());
            assertEquals(dev.gantry.cli.api.JobPages.PAGE_SIZE, big.lastListJobs().getPageSize());
        }
    }

    @Test
    void aControllerWithoutStreamJobs_isReadWithListJobs_pageByPage() {
        FakeController big = bigQueue().withoutStreamJobs();
        try (CliHarness many = new CliHarness(big)) {
            assertEveryJobListed(many.run("squeue", "-h", "-o", "%i", "-S", "i"));
            assertEquals(3, big.listJobsCalls(), "three pages");
            assertEquals(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY, big.lastListJobs().getView());
        }
    }

    private static final int BIG = dev.gantry.cli.api.JobPages.PAGE_SIZE * 2 + 5;

    private static FakeController bigQueue() {
        FakeController big = new FakeController(ClusterFixtures.NOW);
        for (int id = 1; id <= BIG; id++) {
            big.withJob(aJob(id).build());
        }
        return big;
    }

    private static void assertEveryJobListed(Result r) {
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(BIG, lines.size());
        assertEquals("1", lines.get(0));
        assertEquals(Integer.toString(BIG), lines.get(BIG - 1));
    }

    @Test
    void allStatesShowsFinishedJobs() {
        assertEquals(new Result(0, "1\n2\n3\n4\n", ""), cli.run("squeue", "-h", "-o", "%i", "-S", "i", "-t", "all"));
    }

    @Test
    void aJobListShowsItsJobsInAnyState() {
        assertEquals(new Result(0, "4 CD\n", ""), cli.run("squeue", "-h", "-o", "%i %t", "-j", "4"));
        assertEquals(new Result(0, "1\n4\n", ""), cli.run("squeue", "-h", "-o", "%i", "--jobs=4,1,99", "-S", "i"));
    }

    @Test
    void aSingleUnknownJobIdIsAnError() {
        assertEquals(new Result(1, "", "slurm_load_jobs error: Invalid job id specified\n"), cli.run("squeue", "-j", "99"));
    }

    @Test
    void badArgumentsAreReportedAsSlurm() {
        Result states = cli.run("squeue", "-t", "XX");
        assertEquals(1, states.exitCode());
        assertTrue(states.err().startsWith("squeue: error: Invalid job state specified: XX\n"
                + "squeue: error: Valid job states include: PENDING,"), states.err());
        assertEquals(new Result(1, "", "squeue: error: Invalid job id: abc\n"), cli.run("squeue", "-j", "abc"));
        assertEquals(new Result(1, "", "squeue: error: Invalid sort specification: Y\n"), cli.run("squeue", "-S", "Y"));
        assertEquals(new Result(1, "", "squeue: unrecognized option '--bogus'\nTry \"squeue --help\" for more information\n"),
                cli.run("squeue", "--bogus"));
    }

    @Test
    void unknownFormatCodesAreReportedButTheReportStillPrints() {
        Result r = cli.run("squeue", "-h", "-o", "%i %X", "-j", "1");
        assertEquals(new Result(0, "1 %X\n", "squeue: error: Invalid job format specification: X\n"), r);
    }

    @Test
    void longReportPrintsTheDateAndStates() {
        Result r = cli.run("squeue", "-l", "-j", "1");
        assertEquals(new Result(0, """
                Sun Nov 22 12:00:00 2026
                             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES NODELIST(REASON)
                                 1     debug     job1    alice  RUNNING       1:05   1:00:00      2 n[1-2]
                """, ""), r);
    }

    @Test
    void controllerFailures() {
        assertEquals(new Result(1, "", "slurm_load_jobs error: Unable to contact Gantry controller (connect failure)\n"),
                cli.runWith(Unreachable.closedPort(), "", "squeue"));
        cli.controller().failingWith(Status.INTERNAL.withDescription("database is down"));
        assertEquals(new Result(1, "", "slurm_load_jobs error: database is down\n"), cli.run("squeue"));
    }
}
