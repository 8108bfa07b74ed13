package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aJob;
import static dev.gantry.cli.testing.ClusterFixtures.aNode;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import dev.gantry.cli.testing.Unreachable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScontrolCommandTest {

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW)
                .withPartition(aPartition("debug", "n1").setIsDefault(true).build())
                .withNode(aNode("n1", "debug").build())
                .withJob(aJob(5).build())
                .withJob(aJob(6).build()));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @ParameterizedTest(name = "scontrol {0} {1} {2}")
    @CsvSource({
        "show, job, 5",
        "show, jobs, 5",
        "sho, j, 5",
        "SHOW, JOB, 5",
    })
    void showJobWithSlurmsAbbreviations(String keyword, String entity, String id) {
        Result r = cli.run("scontrol", keyword, entity, id);
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("JobId=5 JobName=job5\n   UserId=alice(1000) GroupId=staff(1000) MCS_label=N/A\n"),
                r.out());
        assertTrue(r.out().endsWith("\n\n"), "a blank line ends the record");
    }

    @Test
    void showAllJobsPrintsEachRecord() {
        Result r = cli.run("scontrol", "show", "job");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().startsWith("JobId=5 "), r.out());
        assertTrue(r.out().contains("\n\nJobId=6 "), r.out());
    }

    @Test
    void oneLiner() {
        Result r = cli.run("scontrol", "-o", "show", "job", "6");
        assertEquals(0, r.exitCode());
        assertEquals(1, r.out().chars().filter(c -> c == '\n').count(), r.out());
    }

    @Test
    void showNodeAndPartition() {
        Result node = cli.run("scontrol", "show", "node", "n1");
        assertTrue(node.out().startsWith("NodeName=n1 CoresPerSocket=4 \n   CPUAlloc=0 "), node.out());
        Result all = cli.run("scontrol", "show", "nodes");
        assertEquals(node, all);
        Result partition = cli.run("scontrol", "show", "partition", "debug");
        assertTrue(partition.out().startsWith("PartitionName=debug\n   AllowGroups=ALL "), partition.out());
        assertEquals(partition, cli.run("scontrol", "show", "pa"));
    }

    @Test
    void unknownNamesAreErrors() {
        assertEquals(new Result(1, "", "slurm_load_jobs error: Invalid job id specified\n"),
                cli.run("scontrol", "show", "job", "99"));
        assertEquals(new Result(1, "", "slurm_load_jobs error: Invalid job id specified\n"),
                cli.run("scontrol", "show", "job", "abc"));
        assertEquals(new Result(1, "Node n9 not found\n", ""), cli.run("scontrol", "show", "node", "n9"));
        assertEquals(new Result(1, "Partition gpu not found\n", ""), cli.run("scontrol", "show", "partition", "gpu"));
    }

    @Test
    void otherKeywordsAndEntitiesAreRefused() {
        assertEquals(new Result(1, "", "invalid keyword: reconfigure\n"), cli.run("scontrol", "reconfigure"));
        assertEquals(new Result(1, "", "invalid entity:reservation for keyword:show \n"),
                cli.run("scontrol", "show", "reservation"));
        assertEquals(new Result(1, "", "too few arguments for keyword:show\n"), cli.run("scontrol", "show"));
        assertEquals(1, cli.run("scontrol").exitCode());
    }

    @Test
    void controllerNotListening() {
        assertEquals(new Result(1, "", "slurm_load_jobs error: Unable to contact Gantry controller (connect failure)\n"),
                cli.runWith(Unreachable.closedPort(), "", "scontrol", "show", "job", "5"));
    }
}
