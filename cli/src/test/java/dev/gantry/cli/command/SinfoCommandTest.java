package dev.gantry.cli.command;

import static dev.gantry.cli.testing.ClusterFixtures.aNode;
import static dev.gantry.cli.testing.ClusterFixtures.aPartition;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.v1.NodeState;
import dev.gantry.cli.testing.CliHarness;
import dev.gantry.cli.testing.CliHarness.Result;
import dev.gantry.cli.testing.ClusterFixtures;
import dev.gantry.cli.testing.FakeController;
import dev.gantry.cli.testing.Unreachable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SinfoCommandTest {

    private CliHarness cli;

    @BeforeEach
    void start() {
        cli = new CliHarness(new FakeController(ClusterFixtures.NOW)
                .withPartition(aPartition("debug", "n1", "n2", "n3").setIsDefault(true).setMaxTimeSeconds(3600).build())
                .withPartition(aPartition("long", "n3").build())
                .withNode(aNode("n1", "debug").build())
                .withNode(aNode("n2", "debug").build())
                .withNode(aNode("n3", "debug", "long").setState(NodeState.NODE_STATE_ALLOCATED).build()));
    }

    @AfterEach
    void stop() {
        cli.close();
    }

    @Test
    void defaultReport() {
        assertEquals(new Result(0, """
                PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST
                debug*       up    1:00:00      1  alloc n3
                debug*       up    1:00:00      2   idle n[1-2]
                long         up   infinite      1  alloc n3
                """, ""), cli.run("sinfo"));
    }

    @Test
    void noHeaderPartitionAndNodeOriented() {
        assertEquals(new Result(0, "long         up   infinite      1  alloc n3\n", ""), cli.run("sinfo", "-h", "-p", "long"));
        assertEquals(new Result(0, """
                NODELIST   NODES PARTITION STATE\s
                n3             1 long      alloc\s
                """, ""), cli.run("sinfo", "-N", "-p", "debug", "--partition=long"), "the last -p wins");
    }

    @Test
    void errors() {
        assertEquals(new Result(1, "", "sinfo: invalid option -- 'Z'\nTry \"sinfo --help\" for more information\n"),
                cli.run("sinfo", "-Z"));
        assertEquals(new Result(1, "", "slurm_load_partitions: Unable to contact Gantry controller (connect failure)\n"),
                cli.runWith(Unreachable.closedPort(), "", "sinfo"));
    }
}
