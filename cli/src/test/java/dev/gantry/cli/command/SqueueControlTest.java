package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.NOW;
import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.at;
import static dev.gantry.cli.testing.ClusterFixtures.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.Job;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.FakeController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** squeue's job-control views: --start, array ids, -r, and the account/QOS/nice/dependency fields. */
class SqueueControlTest {

    private CliHarness cli;

    /** Task {@code task} of array 30 (job id 30 + task), with the %2 throttle. */
    private static Job.Builder task(int task) {
        return aJob(30 + task).setArrayJobId(30).setArrayTaskId(task).setArrayMaxRunning(2);
    }

    @BeforeEach
    void start() {
        FakeController controller = new FakeController(NOW)
                .withJob(aJob(2).setReason("Resources").setPriority(500).setStartTime(at(NOW.plusSeconds(7200)))
                        .setSchedNodeList("n[3-4]").build())
                .withJob(aJob(3).setReason("Priority").setPriority(400).setStartTime(at(NOW.plusSeconds(3600)))
                        .setSchedNodeList("n1").build())
                .withJob(aJob(4).setReason("Dependency").setPriority(300).build())
                .withJob(running(aJob(5), 30, "n2").build())
                .withJob(running(task(0), 20, "n1").build())
                .withJob(running(task(1), 20, "n2").build())
                .withJob(task(2).setReason("JobArrayTaskLimit").build())
                .withJob(task(3).setReason("JobArrayTaskLimit").build())
                .withJob(task(4).setReason("JobArrayTaskLimit").build())
                .withJob(task(6).setReason("JobArrayTaskLimit").build());
        cli = new CliHarness(controller);
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void start_showsPendingJobsByExpectedStart_inSlurmsLayout() {
        Result r = cli.run("squeue", "--start");
        assertEquals(new Result(0, """
                             JOBID PARTITION     NAME     USER ST          START_TIME  NODES SCHEDNODES           NODELIST(REASON)
                                 4     debug     job4    alice PD                 N/A      1 (null)               (Dependency)
                      30_[2-4,6%2]     debug    job32    alice PD                 N/A      1 (null)               (JobArrayTaskLimit)
                                 3     debug     job3    alice PD 2026-11-22T13:00:00      1 n1                   (Priority)
                                 2     debug     job2    alice PD 2026-11-22T14:00:00      1 n[3-4]               (Resources)
                """, ""), r, "an unknown start sorts as now + 100 s, as squeue's _get_start_time");
    }

    @Test
    void start_withStatesAndFormatGiven_usesThem() {
        Result r = cli.run("squeue", "--start", "-t", "R", "-h", "-o", "%i %S");
        assertEquals(new Result(0, "30_0 2026-11-22T11:59:40\n30_1 2026-11-22T11:59:40\n5 2026-11-22T11:59:30\n", ""),
                r.exitCode() == 0 ? new Result(0, sortLines(r.out()), "") : r);
    }

    private static String sortLines(String out) {
        return String.join("\n", out.lines().sorted().toList()) + "\n";
    }

    @Test
    void arrayTasksShowAsArrayIdUnderscoreTask_andPendingOnesTogether() {
        Result r = cli.run("squeue", "-h", "-o", "%i|%t|%r", "-S", "i");
        assertEquals(new Result(0, """
                2|PD|Resources
                3|PD|Priority
                4|PD|Dependency
                5|R|None
                30_0|R|None
                30_1|R|None
                30_[2-4,6%2]|PD|JobArrayTaskLimit
                """, ""), r);
    }

    @Test
    void dashRShowsEveryTaskOnItsOwnLine() {
        Result r = cli.run("squeue", "-r", "-h", "-o", "%i", "-t", "PD", "-S", "i");
        assertEquals(new Result(0, "2\n3\n4\n30_2\n30_3\n30_4\n30_6\n", ""), r);
        Result longForm = cli.run("squeue", "--array", "-h", "-o", "%i", "-t", "PD", "-S", "i");
        assertEquals(r, longForm);
    }

    @Test
    void pendingTasksWithDifferentReasonsAreNotFolded() {
        cli.controller().withJob(task(7).setReason("Priority").build());
        Result r = cli.run("squeue", "-h", "-o", "%i", "-t", "PD", "-j", "30");
        assertEquals("30_[2-4,6%2]\n30_[7%2]\n", sortLines(r.out()));
    }

    @Test
    void anArrayIdSelectsEveryTask() {
        Result r = cli.run("squeue", "-h", "-o", "%i", "-j", "30", "-S", "i");
        assertEquals(new Result(0, "30_0\n30_1\n30_[2-4,6%2]\n", ""), r);
    }

    @Test
    void anArrayTaskIdSelectsThatTask() {
        assertEquals(new Result(0, "30_1\n", ""), cli.run("squeue", "-h", "-o", "%i", "-j", "30_1"));
        assertEquals(new Result(0, "30_3\n5\n", ""), cli.run("squeue", "-h", "-r", "-o", "%i", "-j", "30_3,5", "-S", "-i"));
        assertEquals(new Result(1, "", "slurm_load_jobs error: Invalid job id specified\n"),
                cli.run("squeue", "-j", "30_9"));
        assertEquals(new Result(1, "", "squeue: error: Invalid job id: 30_x\n"), cli.run("squeue", "-j", "30_x"));
    }

    @Test
    void arrayFields() {
        Result r = cli.run("squeue", "-h", "-r", "-o", "%A|%F|%K|%i", "-j", "31,5", "-S", "i");
        assertEquals(new Result(0, "5|5|N/A|5\n31|30|1|30_1\n", ""), r);
        Result folded = cli.run("squeue", "-h", "-o", "%F|%K", "-t", "PD", "-j", "30");
        assertEquals(new Result(0, "30|2-4,6%2\n", ""), folded);
    }

    @Test
    void accountQosNiceDependencyAndSchedNodesFields() {
        cli.controller().withJob(aJob(9).setAccount("physics").setQos("high").setNice(-5)
                .setDependency("afterok:4(unfulfilled)").setSchedNodeList("n[1-2]").build());
        Result r = cli.run("squeue", "-h", "-o", "%a|%q|%y|%E|%Y", "-j", "9,3");
        assertEquals("(null)|(null)|0|(null)|n1\nphysics|high|-5|afterok:4(unfulfilled)|n[1-2]\n", sortLines(r.out()));
        Result headers = cli.run("squeue", "-o", "%a %q %y %E %Y %F %K", "-j", "9");
        assertEquals("ACCOUNT QOS NICE DEPENDENCY SCHEDNODES ARRAY_JOB_ID ARRAY_TASK_ID", headers.out().lines().findFirst().orElseThrow());
    }
}
