package dev.gantry.agent.job;

import static dev.gantry.agent.testing.Orders.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OutputPatternTest {

    private static final OutputPattern.Values JOB = new OutputPattern.Values(42, "train", "alice", "n3");

    static Stream<Arguments> patterns() {
        return Stream.of(
                Arguments.of("job id", "slurm-%j.out", "slurm-42.out"),
                Arguments.of("array master id is the job id", "%A.out", "42.out"),
                Arguments.of("array index of a non-array job", "%a", "4294967294"),
                Arguments.of("job name, user, node", "%x-%u-%N.log", "train-alice-n3.log"),
                Arguments.of("node and task index of the batch script", "%n.%t", "0.0"),
                Arguments.of("percent sign", "100%%-%j", "100%-42"),
                Arguments.of("zero padding", "%5j", "00042"),
                Arguments.of("padding narrower than the value", "%1j", "42"),
                Arguments.of("padding is capped", "%999j", "0".repeat(18) + "42"),
                Arguments.of("unknown letter kept", "%q-%j", "%q-42"),
                Arguments.of("trailing percent kept", "out%", "out%"),
                Arguments.of("trailing width kept", "out%3", "out%3"),
                Arguments.of("backslash disables expansion", "job\\%j.out", "job%j.out"),
                Arguments.of("no pattern", "plain.txt", "plain.txt"));
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @MethodSource("patterns")
    void expand(String name, String pattern, String expected) {
        assertEquals(expected, OutputPattern.expand(pattern, JOB));
    }

    static Stream<Arguments> arrayTaskPatterns() {
        return Stream.of(
                Arguments.of("array job id", "%A.out", "100.out"),
                Arguments.of("array task id", "%a.out", "7.out"),
                Arguments.of("Slurm's array default", "slurm-%A_%a.out", "slurm-100_7.out"),
                Arguments.of("job id stays the task's own", "%j", "107"),
                Arguments.of("zero padding of both", "%4A-%3a", "0100-007"));
    }

    @ParameterizedTest(name = "array task: {0}: {1} -> {2}")
    @MethodSource("arrayTaskPatterns")
    void expand_forAnArrayTask(String name, String pattern, String expected) {
        LaunchOrder task = anOrder().jobId(107).arrayTask(100, 7, 10, 0, 9, 1).build();

        assertEquals(expected, OutputPattern.expand(pattern, OutputPattern.Values.of(task, "alice", "n3")));
    }

    static Stream<Arguments> valuesOfOrders() {
        return Stream.of(
                Arguments.of("plain job", anOrder().jobId(42).build(), "42_4294967294"),
                Arguments.of("array task", anOrder().jobId(107).arrayTask(100, 7, 10, 0, 9, 1).build(), "100_7"),
                Arguments.of("the task that carries the array's own job id", anOrder().jobId(100).arrayTask(100, 0, 10, 0, 9, 1).build(), "100_0"));
    }

    @ParameterizedTest(name = "{0}: %A_%a -> {2}")
    @MethodSource("valuesOfOrders")
    void valuesOf_takesArrayIdsFromTheOrder(String name, LaunchOrder order, String expected) {
        assertEquals(expected, OutputPattern.expand("%A_%a", OutputPattern.Values.of(order, "alice", "n3")));
    }

    static Stream<Arguments> files() {
        return Stream.of(
                Arguments.of("default stdout, stderr with it", "", "", "/w/slurm-42.out", "/w/slurm-42.out", true),
                Arguments.of("relative to work_dir", "out/%j.txt", "err/%j.txt", "/w/out/42.txt", "/w/err/42.txt", false),
                Arguments.of("absolute stays", "/logs/%x.out", "", "/logs/train.out", "/logs/train.out", true),
                Arguments.of("same expansion is one file", "%j.log", "%j.log", "/w/42.log", "/w/42.log", true),
                Arguments.of("dot segments normalized", "../%j.out", "", "/42.out", "/42.out", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void resolve(String name, String out, String err, String stdout, String stderr, boolean merged) {
        OutputFiles files = OutputFiles.resolve(out, err, Path.of("/w"), JOB);

        assertEquals(Path.of(stdout), files.stdout());
        assertEquals(Path.of(stderr), files.stderr());
        assertEquals(merged, files.merged());
    }
}
