package dev.gantry.agent.job;

import static dev.gantry.agent.testing.Orders.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
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

    private static final Map<String, String> ARRAY_TASK_ENV = JobEnvironment.build(
            anOrder().jobId(107).arrayTask(100, 14, 8, 0, 21, 3).account("physics").qos("high").restartCount(2).build(),
            ALICE, List.of("n1"), "n1");

    static Stream<Arguments> arrayTaskAndAccountingVariables() {
        return Stream.of(
                Arguments.of("SLURM_JOB_ID", "107"),
                Arguments.of("SLURM_ARRAY_JOB_ID", "100"),
                Arguments.of("SLURM_ARRAY_TASK_ID", "14"),
                Arguments.of("SLURM_ARRAY_TASK_COUNT", "8"),
                Arguments.of("SLURM_ARRAY_TASK_MIN", "0"),
                Arguments.of("SLURM_ARRAY_TASK_MAX", "21"),
                Arguments.of("SLURM_ARRAY_TASK_STEP", "3"),
                Arguments.of("SLURM_JOB_ACCOUNT", "physics"),
                Arguments.of("SLURM_JOB_QOS", "high"),
                Arguments.of("SLURM_RESTART_COUNT", "2"),
                Arguments.of("GANTRY_ARRAY_JOB_ID", "100"),
                Arguments.of("GANTRY_ARRAY_TASK_ID", "14"),
                Arguments.of("GANTRY_ARRAY_TASK_COUNT", "8"),
                Arguments.of("GANTRY_ARRAY_TASK_MIN", "0"),
                Arguments.of("GANTRY_ARRAY_TASK_MAX", "21"),
                Arguments.of("GANTRY_ARRAY_TASK_STEP", "3"),
                Arguments.of("GANTRY_JOB_ACCOUNT", "physics"),
                Arguments.of("GANTRY_JOB_QOS", "high"),
                Arguments.of("GANTRY_RESTART_COUNT", "2"));
    }

    @ParameterizedTest(name = "array task: {0}={1}")
    @MethodSource("arrayTaskAndAccountingVariables")
    void build_ofAnArrayTaskWithAccountQosAndRestarts_setsVariable(String name, String value) {
        assertEquals(value, ARRAY_TASK_ENV.get(name));
    }

    @Test
    void everySometimesSetVariableIsSetForAnArrayTaskWithEverything() {
        JobEnvironment.SOMETIMES_SET.forEach(name -> assertTrue(ARRAY_TASK_ENV.containsKey(name), name));
    }

    static Stream<Arguments> plainJobs() {
        Map<String, String> stale = new HashMap<>();
        JobEnvironment.SOMETIMES_SET.forEach(name -> {
            stale.put(name, "9");
            stale.put(JobEnvironment.twin(name), "9");
        });
        return Stream.of(
                Arguments.of("no array, account, QOS or restart", anOrder().build()),
                Arguments.of("restart count 0", anOrder().restartCount(0).build()),
                Arguments.of("submitted from inside an array task, account, QOS and restart",
                        anOrder().environment(stale).build()));
    }

    @ParameterizedTest(name = "{0}: no SLURM_ARRAY_*, SLURM_JOB_ACCOUNT, SLURM_JOB_QOS, SLURM_RESTART_COUNT")
    @MethodSource("plainJobs")
    void build_ofAPlainJob_setsNoneOfTheSometimesSetVariablesNorTheirTwins(String name, LaunchOrder order) {
        Map<String, String> env = JobEnvironment.build(order, ALICE, List.of("n1"), "n1");

        JobEnvironment.SOMETIMES_SET.forEach(variable -> {
            assertFalse(env.containsKey(variable), variable);
            assertFalse(env.containsKey(JobEnvironment.twin(variable)), JobEnvironment.twin(variable));
        });
    }

    @Test
    void build_withoutMemoryLimit_setsNoMemPerNode() {
        Map<String, String> env = JobEnvironment.build(anOrder().build(), ALICE, List.of("n1"), "n1");

        assertFalse(env.containsKey("SLURM_MEM_PER_NODE"));
    }
}
