package dev.gantry.agent.job;

import static dev.gantry.agent.testing.Orders.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.agent.testing.Orders;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LaunchOrderTest {

    static Stream<Arguments> orders() {
        return Stream.of(
                Arguments.of("well formed", anOrder(), null),
                Arguments.of("job id zero", anOrder().jobId(0), "job_id"),
                Arguments.of("no script", anOrder().script(""), "script"),
                Arguments.of("relative work_dir", anOrder().workDir("w"), "work_dir"),
                Arguments.of("empty work_dir", anOrder().workDir(""), "work_dir"),
                Arguments.of("NUL in work_dir", anOrder().workDir("/w\0"), "work_dir"),
                Arguments.of("NUL in argv", anOrder().argv("a\0b"), "argv"),
                Arguments.of("NUL in stdout", anOrder().stdout("o\0"), "stdout_path"),
                Arguments.of("NUL in stderr", anOrder().stderr("e\0"), "stderr_path"),
                Arguments.of("'=' in a variable name", anOrder().environment(Map.of("A=B", "c")), "environment"),
                Arguments.of("empty variable name", anOrder().environment(Map.of("", "c")), "environment"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("orders")
    void problem_namesTheFirstMalformedField(String name, Orders order, String field) {
        assertEquals(Optional.ofNullable(field), order.build().problem().map(LaunchOutcome.InvalidRequest::field));
    }
}
