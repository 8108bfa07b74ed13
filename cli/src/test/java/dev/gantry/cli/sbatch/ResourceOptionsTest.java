package dev.gantry.cli.sbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.v1.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The node-selection options of sbatch: each sets its JobSpec field; bad values get sbatch's message. */
class ResourceOptionsTest {

    static JobSpec spec(String... args) throws InvalidSubmissionException {
        return JobRequestTest.spec(JobRequestTest.parse(args));
    }

    static Stream<Arguments> options() {
        return Stream.of(
                Arguments.of(List.of("--ntasks-per-node=4"), (Function<JobSpec, Object>) JobSpec::getNtasksPerNode, 4),
                Arguments.of(List.of("--mem-per-cpu=2G"), (Function<JobSpec, Object>) JobSpec::getMemPerCpuMb, 2048L),
                Arguments.of(List.of("--gres=gpu:2"), (Function<JobSpec, Object>) JobSpec::getGresList, List.of("gpu:2")),
                Arguments.of(List.of("--gres", "gpu:a100:1,mps:50"), (Function<JobSpec, Object>) JobSpec::getGresList,
                        List.of("gpu:a100:1", "mps:50")),
                Arguments.of(List.of("--gres=gpu"), (Function<JobSpec, Object>) JobSpec::getGresList, List.of("gpu:1")),
                Arguments.of(List.of("--gres=none"), (Function<JobSpec, Object>) JobSpec::getGresList, List.of()),
                Arguments.of(List.of("--exclusive"), (Function<JobSpec, Object>) JobSpec::getExclusive, true),
                Arguments.of(List.of("--exclusive=user"), (Function<JobSpec, Object>) JobSpec::getExclusiveUser, true),
                Arguments.of(List.of("--exclusive=user"), (Function<JobSpec, Object>) JobSpec::getExclusive, false),
                Arguments.of(List.of("-C", "intel&ib"), (Function<JobSpec, Object>) JobSpec::getConstraint, "intel&ib"),
                Arguments.of(List.of("--constraint=[rack1|rack2]"), (Function<JobSpec, Object>) JobSpec::getConstraint, "[rack1|rack2]"),
                Arguments.of(List.of("-w", "n1,n2,n3"), (Function<JobSpec, Object>) JobSpec::getNodelist, "n[1-3]"),
                Arguments.of(List.of("--nodelist=gpu[01-02]"), (Function<JobSpec, Object>) JobSpec::getNodelist, "gpu[01-02]"),
                Arguments.of(List.of("-x", "n4"), (Function<JobSpec, Object>) JobSpec::getExclude, "n4"),
                Arguments.of(List.of("--exclude=n[1-2]"), (Function<JobSpec, Object>) JobSpec::getExclude, "n[1-2]"),
                Arguments.of(List.of("--contiguous"), (Function<JobSpec, Object>) JobSpec::getContiguous, true),
                Arguments.of(List.of("-s"), (Function<JobSpec, Object>) JobSpec::getOversubscribe, true));
    }

    @ParameterizedTest(name = "{0} sets {2}")
    @MethodSource("options")
    void optionsSetTheirField(List<String> args, Function<JobSpec, Object> field, Object expected) throws Exception {
        assertEquals(expected, field.apply(spec(args.toArray(String[]::new))));
    }

    @Test
    void unsetOptions_leaveTheFieldsUnset() throws Exception {
        JobSpec s = spec();
        assertFalse(s.hasNtasksPerNode());
        assertFalse(s.hasMemPerCpuMb());
        assertEquals(List.of(), s.getGresList());
        assertFalse(s.getExclusive());
        assertEquals("", s.getConstraint() + s.getNodelist() + s.getExclude());
        assertFalse(s.getContiguous());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            --mem=1G --mem-per-cpu=1G   | --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.
            --mem-per-cpu=lots          | Invalid --mem-per-cpu specification
            --ntasks-per-node=many      | "Invalid numeric value ""many"" for --ntasks-per-node."
            --gres=gpu:a:b:c            | Invalid generic resource (gres) specification
            --gres=gpu:0                | Invalid generic resource (gres) specification
            --gres=gpu:2,               | Invalid generic resource (gres) specification
            --exclusive=mcs             | Invalid --exclusive specification
            -w n[1-                     | "Invalid node name specified for --nodelist: n[1-"
            --exclude=n[3-1]            | "Invalid node name specified for --exclude: n[3-1]"
            """)
    void badValues_sbatchMessage(String args, String message) {
        var e = assertThrows(InvalidSubmissionException.class, () -> spec(args.split(" ")));
        assertEquals(List.of(message), e.lines());
    }

    @Test
    void aNodelistWithASlash_isAFileOfNodeNames(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "n1\nn2, n3\n");
        JobSpec s = JobRequestTest.spec(JobRequestTest.parse("-w", file.toString()));
        assertEquals("n[1-3]", s.getNodelist());
        var missing = assertThrows(InvalidSubmissionException.class,
                () -> JobRequestTest.spec(JobRequestTest.parse("-x", dir.resolve("nope").toString())));
        assertEquals(List.of("Invalid node name specified for --exclude: cannot read " + dir.resolve("nope")), missing.lines());
    }

    @Test
    void memOnTheCommandLine_replacesMemPerCpuFromTheScript() throws Exception {
        SbatchOptions script = JobRequestTest.parse("--mem-per-cpu=1G");
        SbatchOptions line = JobRequestTest.parse("--mem=4G");

        JobSpec s = JobRequestTest.spec(script.overriddenBy(line));

        assertEquals(4096, s.getMemPerNodeMb());
        assertFalse(s.hasMemPerCpuMb());
    }
}
