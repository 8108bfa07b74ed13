package dev.gantry.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.GetPrioritiesRequest;
import dev.gantry.api.v1.GetPrioritiesResponse;
import dev.gantry.api.v1.JobPriority;
import dev.gantry.api.v1.PriorityWeights;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** sprio's layouts (src/sprio/print.c): default, -l, -n, -w, -o, selection and errors. */
class SprioCommandTest {

    private static final PriorityWeights WEIGHTS = PriorityWeights.newBuilder().setAge(60000).setFairshare(60000)
            .setJobSize(1000).setPartition(0).setQos(10000).build();

    private static final JobPriority JOB_7 = JobPriority.newBuilder().setJobId(7).setPartition("debug").setUser("alice")
            .setAccount("physics").setQos("normal").setPriority(30512).setSite(0).setAge(1500.4).setFairshare(29000.6)
            .setJobSize(12).setQosFactor(0).setNice(0).build();
    private static final JobPriority JOB_8 = JobPriority.newBuilder().setJobId(8).setPartition("gpu").setUser("bob")
            .setAccount("bio").setQos("buyin").setPriority(45100).setAge(60000).setFairshare(0).setJobSize(100)
            .setQosFactor(3000).setNice(-100).build();

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW).withPriorities(GetPrioritiesResponse.newBuilder()
                .addPriorities(JOB_7).addPriorities(JOB_8).setWeights(WEIGHTS).build()));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void defaultLayout_dropsFactorsWeightedZero() {
        Result r = cli.run("sprio");
        assertEquals(new Result(0, """
                          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE        QOS
                              7 debug          30512          0       1500      29001         12          0
                              8 gpu            45100          0      60000          0        100       3000
                """, ""), r);
    }

    @Test
    void longLayout() {
        Result r = cli.run("sprio", "-l");
        assertEquals(new Result(0, """
                          JOBID PARTITION     USER  ACCOUNT   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  PARTITION    QOSNAME        QOS        NICE                 TRES
                              7 debug        alice  physics      30512          0       1500      29001         12          0     normal          0           0%s
                              8 gpu            bob      bio      45100          0      60000          0        100          0      buyin       3000        -100%s
                """.formatted(" ".repeat(21), " ".repeat(21)), ""), r, "an empty TRES column is padded to its width");
    }

    @Test
    void normalizedFactorsAreDividedByTheirWeights() {
        Result r = cli.run("sprio", "-n", "-h");
        assertEquals(new Result(0, """
                              7 debug     0.00000710 0          0.0250067  0.4833433  0.0120000  0.0000000\s
                              8 gpu       0.00001050 0          1.0000000  0.0000000  0.1000000  0.3000000\s
                """, ""), r, "a left-justified %10y is cut to ten characters, as sprio's _print_str");
    }

    @Test
    void weightsRow() {
        Result r = cli.run("sprio", "-w");
        assertEquals(new Result(0, """
                          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE        QOS
                        Weights                               1      60000      60000       1000      10000
                """, ""), r);
    }

    @Test
    void formatAndSelectionGoToTheController() {
        Result r = cli.run("sprio", "-h", "-o", "%i|%u|%n|%N|%Y", "-u", "alice,bob", "-p", "debug", "-j7,8");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("7|alice|normal|0|30512\n8|bob|buyin|-100|45100\n", r.out());
        GetPrioritiesRequest req = cli.controller().last(GetPrioritiesRequest.class);
        assertEquals(List.of(7L, 8L), req.getJobIdsList());
        assertEquals(List.of("alice", "bob"), req.getUsersList());
        assertEquals(List.of("debug"), req.getPartitionsList());
    }

    @Test
    void withUsersTheDefaultShowsTheUser() {
        Result r = cli.run("sprio", "-u", "alice");
        assertTrue(r.out().startsWith("          JOBID     USER PARTITION   PRIORITY"), r.out());
    }

    @Test
    void anAdministratorsPriorityShowsNoFactors() {
        cli.controller().withPriorities(GetPrioritiesResponse.newBuilder().setWeights(WEIGHTS)
                .addPriorities(JOB_7.toBuilder().setAdminSet(true).setPriority(99999)).build());
        assertEquals("7|99999|0|0\n", cli.run("sprio", "-h", "-o", "%i|%Y|%A|%F").out());
    }

    @Test
    void noMatchingJobs() {
        cli.controller().withPriorities(GetPrioritiesResponse.newBuilder().setWeights(WEIGHTS).build());
        assertEquals(new Result(0, "Unable to find jobs matching user/id(s) specified\n", ""), cli.run("sprio", "-j", "99"));
        assertEquals(0, cli.run("sprio").exitCode());
    }

    @Test
    void badInput() {
        assertEquals(new Result(1, "", "sprio: error: Invalid job format specification: X\n"),
                cli.run("sprio", "-o", "%i %X"));
        assertEquals(new Result(1, "", "sprio: error: Invalid job id: x\n"), cli.run("sprio", "-jx"));
        Result bogus = cli.run("sprio", "--bogus");
        assertEquals(1, bogus.exitCode());
        assertTrue(bogus.err().startsWith("sprio: unrecognized option '--bogus'"), bogus.err());
    }
}
