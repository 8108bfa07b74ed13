package dev.gantry.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Memory defaults and MaxMemPerCPU, as slurm.conf documents DefMemPerCPU/DefMemPerNode/MaxMemPerCPU. */
class JobSizingTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // case, cpus/task, mem/cpu, mem/node, DefMemPerCPU, DefMemPerNode, MaxMemPerCPU, → cpus/task, mem/cpu, mem/node
            "explicit per-CPU memory is kept,             1, 300,   0,   0,   0,   0, 1, 300,   0",
            "explicit per-node memory is kept,            1,   0, 800, 100,   0,   0, 1,   0, 800",
            "DefMemPerCPU applies when none is asked,     2,   0,   0, 100,   0,   0, 2, 100,   0",
            "DefMemPerNode wins over DefMemPerCPU,        2,   0,   0, 100, 500,   0, 2,   0, 500",
            "over MaxMemPerCPU raises the CPUs per task,  1, 300,   0,   0,   0, 250, 2, 150,   0",
            "the total per task is kept,                  3, 500,   0,   0,   0, 400, 4, 375,   0",
            "a default over MaxMemPerCPU is raised too,   1,   0,   0, 900,   0, 300, 3, 300,   0",
    })
    void memoryAndCpusPerTask(String rule, int cpusPerTask, long memPerCpu, long memPerNode, long defPerCpu,
                              long defPerNode, long maxPerCpu, int wantCpusPerTask, long wantPerCpu, long wantPerNode) {
        JobSizing s = JobSizing.of(2, cpusPerTask, 0, memPerCpu, memPerNode,
                new MemoryLimits(defPerCpu, defPerNode, maxPerCpu, 0));
        assertEquals(List.of(wantCpusPerTask, wantPerCpu, wantPerNode),
                List.of(s.cpusPerTask(), s.memPerCpuMb(), s.memPerNodeMb()), rule);
    }

    @ParameterizedTest(name = "{0} tasks on {1} nodes: node {2} gets {3}")
    @CsvSource({"5, 2, 0, 3", "5, 2, 1, 2", "4, 4, 3, 1"})
    void tasksSpreadEvenly_firstNodesMore(int tasks, int nodes, int node, int want) {
        assertEquals(want, JobSizing.of(tasks, 1, 0, 0, 0, MemoryLimits.NONE).tasksOn(node, nodes));
    }
}
