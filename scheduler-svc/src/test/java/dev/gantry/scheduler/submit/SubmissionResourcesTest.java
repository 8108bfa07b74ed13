package dev.gantry.scheduler.submit;

import static dev.gantry.scheduler.Fixtures.aRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.resources.GresSpec;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.NodeSelection;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Submit-time rules for GRES, features, node lists, tasks per node and Slurm's memory limits: a request no node
 * of the partition could ever satisfy is refused with the field and the limit; defaults are applied.
 */
class SubmissionResourcesTest {

    /** cpu: four 8-CPU nodes (two intel+ib, two amd); gpu: two nodes with GPUs; tight: memory limits per CPU. */
    static ClusterConfig config() {
        return ConfigParser.parse(Path.of("test.conf"), """
                GresTypes=gpu,mps
                DefMemPerCPU=100
                MaxMemPerNode=30000
                NodeName=c[1-2] CPUs=8 RealMemory=16000 Features=intel,ib
                NodeName=c[3-4] CPUs=8 RealMemory=16000 Features=amd
                NodeName=g1 CPUs=16 RealMemory=64000 Gres=gpu:a100:4 Features=intel
                NodeName=g2 CPUs=16 RealMemory=64000 Gres=gpu:v100:2
                PartitionName=cpu Nodes=c[1-4] Default=YES DefMemPerNode=1000
                PartitionName=gpu Nodes=g[1-2] MaxMemPerCPU=2000
                PartitionName=all Nodes=ALL
                """);
    }

    private final SubmissionPolicy policy = new SubmissionPolicy(config());

    static Arguments refused(String name, UnaryOperator<JobRequest.Builder> change, String field, String message) {
        return Arguments.of(name, change, field, message);
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                refused("unknown GRES name", b -> b.addGres("fpga:1"), "gres",
                        "gres: unknown GRES 'fpga'; GresTypes is gpu,mps"),
                refused("malformed GRES", b -> b.addGres("gpu:a:b:1"), "gres",
                        "gres: Invalid generic resource (gres) specification: 'gpu:a:b:1' is not name[:type][:count]"),
                refused("GRES no node of the partition has", b -> b.addGres("gpu:1"), "gres",
                        "gres: unknown GRES gpu in partition cpu: no node has it"),
                refused("unknown GRES type", b -> b.addPartition("gpu").addGres("gpu:h100:1"), "gres",
                        "gres: unknown GRES gpu:h100 in partition gpu: no node has it"),
                refused("more GPUs than any node has", b -> b.addPartition("gpu").addGres("gpu:5"), "gres",
                        "gres: gpu:5 per node requested; the most any node of partition gpu has is 4"),
                refused("more typed GPUs than any node has", b -> b.addPartition("gpu").addGres("gpu:v100:3"), "gres",
                        "gres: gpu:v100:3 per node requested; the most any node of partition gpu has is 2"),
                refused("unknown feature", b -> b.constraint("intel&bigmem"), "constraint",
                        "constraint: Invalid feature specification: unknown feature bigmem (no node of partition cpu has it)"),
                refused("malformed constraint", b -> b.constraint("intel&"), "constraint",
                        "constraint: Invalid feature specification: 'intel&': expected a feature name at the end (position 7)"),
                refused("node counts in the constraint", b -> b.constraint("intel*2"), "constraint",
                        "constraint: node counts (feature*N) are not supported by Gantry's node selection yet"),
                refused("features no single node has together", b -> b.constraint("intel&amd"), "constraint",
                        "constraint: no node of partition cpu satisfies 'intel&amd'"),
                refused("too few nodes with the feature", b -> b.constraint("ib").minNodes(3), "min_nodes",
                        "min_nodes: 3 nodes requested; only 2 node(s) of partition cpu have the CPUs, memory, GRES and features requested"),
                refused("nodelist names an unknown node", b -> b.nodelist("c9"), "nodelist",
                        "nodelist: Invalid node name specified: c9 is not a node of this cluster"),
                refused("nodelist outside the partition", b -> b.nodelist("g1"), "nodelist",
                        "nodelist: node g1 is not in partition cpu"),
                refused("required node lacks the feature", b -> b.nodelist("c3").constraint("intel"), "nodelist",
                        "nodelist: node c3 does not have the CPUs, memory, GRES and features requested"),
                refused("required and excluded", b -> b.nodelist("c1").exclude("c[1-2]"), "nodelist",
                        "nodelist: node c1 is both required and excluded"),
                refused("exclude leaves too few nodes", b -> b.minNodes(3).exclude("c[1-2]"), "min_nodes",
                        "min_nodes: 3 nodes requested, partition cpu has 4 (2 excluded)"),
                refused("more listed nodes than max_nodes", b -> b.nodelist("c[1-3]").maxNodes(2), "nodelist",
                        "nodelist: 3 nodes listed, more than max_nodes 2"),
                refused("memory above MaxMemPerNode", b -> b.addPartition("all").memPerNodeMb(40000L), "mem_per_node_mb",
                        "mem_per_node_mb: 40000M per node requested exceeds partition all MaxMemPerNode 30000M"),
                refused("memory per CPU above MaxMemPerCPU", b -> b.addPartition("gpu").memPerCpuMb(4000L), "mem_per_cpu_mb",
                        "mem_per_cpu_mb: 4000M per CPU exceeds partition gpu MaxMemPerCPU 2000M"),
                refused("memory per CPU times CPUs above the node", b -> b.memPerCpuMb(3000L).ntasks(8), "mem_per_cpu_mb",
                        "mem_per_cpu_mb: 24000M per node requested; the largest node in partition cpu has 16000M"),
                refused("both memory forms", b -> b.memPerNodeMb(100L).memPerCpuMb(100L), "mem_per_cpu_mb",
                        "mem_per_cpu_mb: not together with mem_per_node_mb (--mem and --mem-per-cpu are mutually exclusive)"),
                refused("zero memory per CPU", b -> b.memPerCpuMb(0L), "mem_per_cpu_mb",
                        "mem_per_cpu_mb: must be at least 1, got 0"),
                refused("zero tasks per node", b -> b.ntasksPerNode(0), "ntasks_per_node",
                        "ntasks_per_node: must be at least 1, got 0"),
                refused("more tasks per node than CPUs", b -> b.ntasksPerNode(9), "ntasks_per_node",
                        "ntasks_per_node: 9 task(s) x 1 CPU(s) on each node(s) needs 9 CPUs per node; the largest node in partition cpu has 8"),
                refused("tasks need more nodes than allowed", b -> b.ntasks(32).ntasksPerNode(4).minNodes(2).maxNodes(2),
                        "ntasks_per_node", "ntasks_per_node: 32 tasks at 4 per node need 8 nodes; at most 2 can be used in partition cpu"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refuses_namingTheFieldAndTheLimit(String name, UnaryOperator<JobRequest.Builder> change, String field, String message) {
        var r = assertInstanceOf(SubmissionPolicy.Rejected.class, policy.check(change.apply(aRequest()).build()));
        assertEquals(field, r.field());
        assertEquals(message, r.message());
    }

    private SubmissionPolicy.Accepted accept(JobRequest.Builder spec) {
        return assertInstanceOf(SubmissionPolicy.Accepted.class, policy.check(spec.build()));
    }

    @Test
    void memoryDefaults_partitionDefMemPerNodeBeatsGlobalDefMemPerCpu() {
        var cpu = accept(aRequest());
        assertEquals(1000, cpu.ask().memPerNodeMb());
        assertEquals(0, cpu.ask().memPerCpuMb());

        var gpu = accept(aRequest().addPartition("gpu"));
        assertEquals(0, gpu.ask().memPerNodeMb());
        assertEquals(100, gpu.ask().memPerCpuMb(), "no partition default: the global DefMemPerCPU");
    }

    @Test
    void explicitMemoryPerCpu_isKept() {
        var a = accept(aRequest().memPerCpuMb(512L).ntasks(4));
        assertEquals(512, a.ask().memPerCpuMb());
        assertEquals(2048, a.ask().memoryOn(4));
    }

    @Test
    void nodelist_raisesTheNodeCount_andIsCarriedExpanded() {
        var a = accept(aRequest().nodelist("c[1-3]").exclude("c4"));
        assertEquals(3, a.ask().minNodes());
        assertEquals(3, a.ask().numTasks());
        assertEquals(List.of("c1", "c2", "c3"), a.ask().selection().requiredNodes());
        assertEquals(List.of("c4"), a.ask().selection().excludedNodes());
    }

    @Test
    void tasksPerNode_impliesNodesAndTasks() {
        var implied = accept(aRequest().ntasks(12).ntasksPerNode(4));
        assertEquals(3, implied.ask().minNodes());
        var perNode = accept(aRequest().minNodes(2).ntasksPerNode(3));
        assertEquals(6, perNode.ask().numTasks());
        assertEquals(3, perNode.ask().ntasksPerNode());
    }

    @Test
    void gresAndSelection_areParsedIntoTheAsk() {
        var a = accept(aRequest().addPartition("gpu").addGres("gpu:a100:2").constraint("intel").exclusive(true)
                .contiguous(true).oversubscribe(true));
        assertEquals(new NodeSelection(List.of(new GresSpec("gpu", "a100", 2)), true, "intel", List.of(), List.of(), true, true),
                a.ask().selection());
    }

    @Test
    void anUntypedGpuRequest_fitsTheSumOfTypes_onlyPerNode() {
        accept(aRequest().addPartition("gpu").addGres("gpu:4"));
    }

    @Test
    void enoughThatOneRequestedPartitionFits() {
        var a = accept(aRequest().addPartition("cpu").addPartition("gpu").addGres("gpu:2"));
        assertEquals(List.of("cpu", "gpu"), a.partitions());
    }
}
