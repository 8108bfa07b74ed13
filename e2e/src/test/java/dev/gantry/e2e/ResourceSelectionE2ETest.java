package dev.gantry.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Resource selection end to end, on a real local cluster with GPUs, node features and a switch tree in its config:
 * --gres, --constraint, -w and -x jobs land on the nodes that satisfy them, and a request no node could ever
 * satisfy is refused at submit by sbatch with the limit named (exit 1, nothing queued).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResourceSelectionE2ETest {

    private TestCluster cluster;
    private Path work;
    private Shell shell;

    @BeforeAll
    void up(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("topology.conf"), """
                SwitchName=s1 Nodes=c[1-2]
                SwitchName=s2 Nodes=g1
                SwitchName=top Switches=s[1-2]
                """);
        cluster = TestCluster.start(tmp, "select", """
                ClusterName=e2e-select
                KillWait=5
                GresTypes=gpu
                TopologyPlugin=topology/tree
                NodeName=c[1-2] CPUs=2 RealMemory=2048 Features=intel,ib
                NodeName=g1 CPUs=2 RealMemory=2048 Features=amd Gres=gpu:a100:2
                PartitionName=debug Nodes=c[1-2],g1 Default=YES MaxTime=60 MaxMemPerNode=1024 State=UP
                """);
        assertTrue(cluster.upResult.out().contains("is up: 3 node(s)"), cluster.upResult.out());
        work = cluster.work;
        shell = cluster.shell;
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "sbatch {0} runs on {1}")
    @CsvSource(delimiter = ';', textBlock = """
            --gres=gpu:1                ; g1
            --gres=gpu:a100:2           ; g1
            -C amd                      ; g1
            -C intel -w c2              ; c2
            -x c[1-2]                   ; g1
            -N 2 -C [intel|amd]         ; c[1-2]
            """)
    void aJobLandsOnTheNodesThatSatisfyIt(String options, String nodes) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(options.split(" ")));
        args.addAll(List.of("--wrap", "echo $SLURM_JOB_NODELIST", "-o", work.resolve("sel-%j.out").toString()));
        long id = cluster.submit(args.toArray(String[]::new));
        Job job = cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        assertEquals(nodes, job.getNodeList(), job.toString());
        assertEquals(0, job.getExitCode());
    }

    @ParameterizedTest(name = "sbatch {0} is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            --gres=gpu:3          | gres: gpu:3 per node requested; the most any node of partition debug has is 2
            --gres=gpu:h100:1     | gres: unknown GRES gpu:h100 in partition debug: no node has it
            --gres=fpga:1         | gres: unknown GRES 'fpga'; GresTypes is gpu
            -C bigmem             | constraint: Invalid feature specification: unknown feature bigmem (no node of partition debug has it)
            -C intel&amd          | constraint: no node of partition debug satisfies 'intel&amd'
            -c 3                  | cpus_per_task: 1 task(s) x 3 CPU(s) on 1 node(s) needs 3 CPUs per node; the largest node in partition debug has 2
            --mem=2000            | mem_per_node_mb: 2000M per node requested exceeds partition debug MaxMemPerNode 1024M
            -w c9                 | nodelist: Invalid node name specified: c9 is not a node of this cluster
            -w c1 -C amd          | nodelist: node c1 does not have the CPUs, memory, GRES and features requested
            """)
    void anImpossibleRequestIsRefusedAtSubmit_withTheLimitNamed(String options, String message) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(options.split(" ")));
        args.addAll(List.of("--wrap", "true"));
        Shell.Result r = shell.run(work, "sbatch", args.toArray(String[]::new));
        assertEquals(1, r.exit(), r.toString());
        assertEquals("sbatch: error: Batch job submission failed: " + message + "\n", r.err(), r.toString());
        assertEquals("", r.out());
    }

    @org.junit.jupiter.api.Test
    void scontrolShowsGresFeaturesAndTheRequest() throws Exception {
        Shell.Result node = shell.run(work, "scontrol", "show", "node", "g1");
        assertEquals(0, node.exit(), node.toString());
        assertTrue(node.out().contains("   Gres=gpu:a100:2\n"), node.out());
        assertTrue(node.out().contains("   AvailableFeatures=amd\n"), node.out());
        assertTrue(node.out().contains("gres/gpu=2"), node.out());

        long id = cluster.submit("-w", "c1", "-x", "g1", "--mem-per-cpu=100", "--wrap", "true", "-o", "/dev/null");
        cluster.await(id, j -> j.getState() == JobState.JOB_STATE_COMPLETED && !j.getCompleting());
        Shell.Result job = shell.run(work, "scontrol", "show", "job", Long.toString(id));
        assertEquals(0, job.exit(), job.toString());
        assertTrue(job.out().contains("   ReqNodeList=c1 ExcNodeList=g1\n"), job.out());
        assertTrue(job.out().contains(" MinMemoryCPU=100M "), job.out());
    }
}
