package dev.gantry.cli.sbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.cli.api.BatchJobSpecs;
import dev.gantry.cli.getopt.Getopt;
import dev.gantry.cli.getopt.UsageException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobRequestTest {

    private static final Submitter ALICE = new Submitter("alice", 1000, 100, "login1", Path.of("/home/alice/work"),
            Map.of("PATH", "/usr/bin", "FOO", "bar"));
    private static final BatchScript SCRIPT = new BatchScript("#!/bin/sh\ntrue\n");

    static SbatchOptions parse(String... args) {
        try {
            return SbatchOptions.from(new Getopt(SbatchOptions.SPECS, false).parse(List.of(args)));
        } catch (UsageException e) {
            throw new AssertionError(e);
        }
    }

    /** The spec sbatch sends for {@code options}: the request, through the adapter's mapping. */
    static JobSpec spec(SbatchOptions options) throws InvalidSubmissionException {
        return BatchJobSpecs.spec(new SbatchRequest(SCRIPT, List.of("a1", "a2"), "run.sh", options, ALICE)
                .toRequest());
    }

    static Stream<Arguments> options() {
        return Stream.of(
                Arguments.of(List.of("-J", "build"), (Function<JobSpec, Object>) JobSpec::getName, "build"),
                Arguments.of(List.of("--job-name=build"), (Function<JobSpec, Object>) JobSpec::getName, "build"),
                Arguments.of(List.of(), (Function<JobSpec, Object>) JobSpec::getName, "run.sh"),
                Arguments.of(List.of("-p", "debug,long"), (Function<JobSpec, Object>) JobSpec::getPartitionsList, List.of("debug", "long")),
                Arguments.of(List.of("-N", "3"), (Function<JobSpec, Object>) s -> s.getMinNodes() + "/" + s.hasMaxNodes(), "3/false"),
                Arguments.of(List.of("-N2"), (Function<JobSpec, Object>) JobSpec::getMinNodes, 2),
                Arguments.of(List.of("--nodes=2-4"), (Function<JobSpec, Object>) s -> s.getMinNodes() + "-" + s.getMaxNodes(), "2-4"),
                Arguments.of(List.of("-n", "8"), (Function<JobSpec, Object>) JobSpec::getNtasks, 8),
                Arguments.of(List.of("-c", "2"), (Function<JobSpec, Object>) JobSpec::getCpusPerTask, 2),
                Arguments.of(List.of("--mem=4G"), (Function<JobSpec, Object>) JobSpec::getMemPerNodeMb, 4096L),
                Arguments.of(List.of("--mem", "500"), (Function<JobSpec, Object>) JobSpec::getMemPerNodeMb, 500L),
                Arguments.of(List.of("--mem=1025K"), (Function<JobSpec, Object>) JobSpec::getMemPerNodeMb, 2L),
                Arguments.of(List.of("-t", "90"), (Function<JobSpec, Object>) JobSpec::getTimeLimitSeconds, 5400L),
                Arguments.of(List.of("--time=1-00:00:00"), (Function<JobSpec, Object>) JobSpec::getTimeLimitSeconds, 86400L),
                Arguments.of(List.of("-t", "UNLIMITED"), (Function<JobSpec, Object>) JobSpec::getTimeLimitSeconds, -1L),
                Arguments.of(List.of("-o", "out-%j.txt"), (Function<JobSpec, Object>) JobSpec::getStdoutPath, "out-%j.txt"),
                Arguments.of(List.of("-e", "err-%j.txt"), (Function<JobSpec, Object>) JobSpec::getStderrPath, "err-%j.txt"),
                Arguments.of(List.of("-D", "sub/dir"), (Function<JobSpec, Object>) JobSpec::getWorkDir, "/home/alice/work/sub/dir"),
                Arguments.of(List.of("-D", "/scratch/x/../y"), (Function<JobSpec, Object>) JobSpec::getWorkDir, "/scratch/y"),
                Arguments.of(List.of(), (Function<JobSpec, Object>) JobSpec::getWorkDir, "/home/alice/work"),
                Arguments.of(List.of("-N", "0"), (Function<JobSpec, Object>) JobSpec::getMinNodes, 0),
                Arguments.of(List.of("-n", "-1"), (Function<JobSpec, Object>) JobSpec::getNtasks, -1),
                Arguments.of(List.of("-N", "1", "-N", "5"), (Function<JobSpec, Object>) JobSpec::getMinNodes, 5));
    }

    @ParameterizedTest(name = "{0} sets {2}")
    @MethodSource("options")
    void optionsSetTheirField(List<String> args, Function<JobSpec, Object> field, Object expected) throws Exception {
        assertEquals(expected, field.apply(spec(parse(args.toArray(String[]::new)))));
    }

    @Test
    void unsetCountsStayUnsetForTheControllerToDefault() throws Exception {
        JobSpec spec = spec(parse());
        assertFalse(spec.hasMinNodes());
        assertFalse(spec.hasMaxNodes());
        assertFalse(spec.hasNtasks());
        assertFalse(spec.hasCpusPerTask());
        assertFalse(spec.hasMemPerNodeMb());
        assertFalse(spec.hasTimeLimitSeconds());
        assertTrue(spec.getStdoutPath().isEmpty());
    }

    @Test
    void recordsTheSubmitterAndScript() throws Exception {
        JobSpec spec = spec(parse());
        assertEquals("alice", spec.getUser());
        assertEquals(1000, spec.getUid());
        assertEquals(100, spec.getGid());
        assertEquals("login1", spec.getSubmitHost());
        assertEquals("/home/alice/work", spec.getSubmitDir());
        assertEquals(Map.of("PATH", "/usr/bin", "FOO", "bar"), spec.getEnvironmentMap());
        assertEquals(SCRIPT.text(), spec.getScript());
        assertEquals(List.of("a1", "a2"), spec.getArgvList());
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(List.of("-N", "x"), "Invalid numeric value \"x\" for --nodes."),
                Arguments.of(List.of("-N", "2-x"), "Invalid numeric value \"2-x\" for --nodes."),
                Arguments.of(List.of("--nodes=99999999999"), "Invalid numeric value \"99999999999\" for --nodes."),
                Arguments.of(List.of("-n", "four"), "Invalid numeric value \"four\" for --ntasks."),
                Arguments.of(List.of("-c", "1.5"), "Invalid numeric value \"1.5\" for --cpus-per-task."),
                Arguments.of(List.of("--mem=lots"), "Invalid --mem specification"),
                Arguments.of(List.of("--mem=4GB"), "Invalid --mem specification"),
                Arguments.of(List.of("-t", "1:2:3:4"), "Invalid --time specification"),
                Arguments.of(List.of("-t", "soon"), "Invalid --time specification"));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("badValues")
    void unparsableValuesAreRefusedWithSbatchsWording(List<String> args, String message) {
        InvalidSubmissionException e = assertThrows(InvalidSubmissionException.class,
                () -> spec(parse(args.toArray(String[]::new))));
        assertEquals(List.of(message), e.lines());
    }

    @Test
    void commandLineOverridesDirectivesOptionByOption() throws Exception {
        SbatchOptions directives = parse("-J", "fromScript", "-N", "2", "-t", "10");
        SbatchOptions commandLine = parse("-N", "4", "--parsable");
        SbatchOptions merged = directives.overriddenBy(commandLine);
        JobSpec spec = spec(merged);
        assertEquals("fromScript", spec.getName());
        assertEquals(4, spec.getMinNodes());
        assertEquals(600, spec.getTimeLimitSeconds());
        assertTrue(merged.isParsable());
        assertFalse(directives.isParsable());
    }
}
