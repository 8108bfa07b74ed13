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
                Arguments.of("empty variable name", anOrder().environment(Map.of("", "c")), "environment"),
                Arguments.of("array task", anOrder().arrayTask(40, 2, 3, 0, 2, 1), null),
                Arguments.of("array task of array 0", anOrder().arrayTask(0, 2, 3, 0, 2, 1), "array"),
                Arguments.of("negative array task id", anOrder().arrayTask(40, -1, 3, 0, 2, 1), "array"),
                Arguments.of("account and QOS", anOrder().account("physics").qos("high").restartCount(3), null),
                Arguments.of("NUL in account", anOrder().account("a\0"), "account"),
                Arguments.of("NUL in qos", anOrder().qos("q\0"), "qos"),
                Arguments.of("negative restart count", anOrder().restartCount(-1), "restart_count"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("orders")
    void problem_namesTheFirstMalformedField(String name, Orders order, String field) {
        assertEquals(Optional.ofNullable(field), order.build().problem().map(LaunchOutcome.InvalidRequest::field));
    }
}
