package dev.gantry.agent.job;

import static dev.gantry.agent.testing.Orders.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobEnvironmentTest {

    private static final JobUser ALICE = new JobUser("alice", 1000, 100);

    private static final Map<String, String> ENV = JobEnvironment.build(
            anOrder().environment(Map.of("PATH", "/opt/bin", "HOME", "/home/alice", "SLURM_JOB_ID", "7"))
                    .tasks(4).cpusOnNode(8).memoryMb(2048).submitDir("/home/alice").build(),
            new JobUser("alice", 4294967295L, 100), List.of("n1", "n2", "n3", "x9"), "n2");

    static Stream<Arguments> variables() {
        return Stream.of(
                Arguments.of("SLURM_JOB_ID", "42"),
                Arguments.of("SLURM_JOBID", "42"),
                Arguments.of("SLURM_JOB_NAME", "train"),
                Arguments.of("SLURM_JOB_NODELIST", "n[1-3],x9"),
                Arguments.of("SLURM_NODELIST", "n[1-3],x9"),
                Arguments.of("SLURM_NNODES", "4"),
                Arguments.of("SLURM_JOB_NUM_NODES", "4"),
                Arguments.of("SLURM_NTASKS", "4"),
                Arguments.of("SLURM_NPROCS", "4"),
                Arguments.of("SLURM_CPUS_ON_NODE", "8"),
                Arguments.of("SLURM_MEM_PER_NODE", "2048"),
                Arguments.of("SLURM_SUBMIT_DIR", "/home/alice"),
                Arguments.of("SLURM_SUBMIT_HOST", "login1"),
                Arguments.of("SLURM_JOB_PARTITION", "gpu"),
                Arguments.of("SLURM_JOB_USER", "alice"),
                Arguments.of("SLURM_JOB_UID", "4294967295"),
                Arguments.of("SLURM_JOB_GID", "100"),
                Arguments.of("SLURMD_NODENAME", "n2"),
                Arguments.of("SLURM_NODEID", "0"),
                Arguments.of("SLURM_PROCID", "0"),
                Arguments.of("SLURM_LOCALID", "0"),
                Arguments.of("GANTRY_JOB_ID", "42"),
                Arguments.of("GANTRY_JOBID", "42"),
                Arguments.of("GANTRY_JOB_NODELIST", "n[1-3],x9"),
                Arguments.of("GANTRY_NODENAME", "n2"),
                Arguments.of("GANTRY_LOCALID", "0"),
                Arguments.of("PATH", "/opt/bin"),
                Arguments.of("HOME", "/home/alice"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("variables")
    void build_setsVariable(String name, String value) {
        assertEquals(value, ENV.get(name));
    }

    @Test
    void everySlurmVariableHasAGantryTwin() {
        ENV.keySet().stream().filter(k -> k.startsWith("SLURM")).forEach(k ->
                assertEquals(ENV.get(k), ENV.get(JobEnvironment.twin(k)), k));
    }

    static Stream<Arguments> defaults() {
        return Stream.of(
                Arguments.of("no PATH submitted", "PATH", JobEnvironment.DEFAULT_PATH),
                Arguments.of("no task count: one per node", "SLURM_NTASKS", "1"),
                Arguments.of("no CPU count: one", "SLURM_CPUS_ON_NODE", "1"),
                Arguments.of("no submit dir: the work dir", "SLURM_SUBMIT_DIR", "/work"),
                Arguments.of("no node list: this node", "SLURM_JOB_NODELIST", "n1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaults")
    void build_fillsDefaults(String name, String variable, String value) {
        Map<String, String> env = JobEnvironment.build(anOrder().build(), ALICE, List.of(), "n1");

        assertEquals(value, env.get(variable));
    }

    @Test
    void build_withoutMemoryLimit_setsNoMemPerNode() {
        Map<String, String> env = JobEnvironment.build(anOrder().build(), ALICE, List.of("n1"), "n1");

        assertFalse(env.containsKey("SLURM_MEM_PER_NODE"));
    }
}
