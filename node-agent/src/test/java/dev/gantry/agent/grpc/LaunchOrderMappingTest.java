package dev.gantry.agent.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.agent.job.LaunchOrder;
import dev.gantry.api.v1.ArrayTask;
import dev.gantry.api.v1.LaunchJobRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** LaunchJobRequest → LaunchOrder: every field arrives, and an unset array means "not an array task". */
class LaunchOrderMappingTest {

    private static final LaunchJobRequest FULL = LaunchJobRequest.newBuilder()
            .setJobId(107).setJobName("sweep").setScript("#!/bin/sh\n").addArgv("a").setWorkDir("/w")
            .setStdoutPath("%A_%a.out").setStderrPath("%A_%a.err").putEnvironment("K", "v").setPartition("gpu")
            .setNumTasks(4).setCpusOnNode(8).setMemoryMb(2048).setSubmitDir("/home/alice").setSubmitHost("login1")
            .setTimeLimitSeconds(3600).addCoreIds(2).addCoreIds(3)
            .setArray(ArrayTask.newBuilder().setArrayJobId(100).setTaskId(7).setTaskCount(10).setTaskMin(0)
                    .setTaskMax(9).setTaskStep(1))
            .setAccount("physics").setQos("high").setRestartCount(2)
            .build();

    private static final LaunchOrder FULL_ORDER = dev.gantry.agent.process.LaunchRequests.order(FULL);

    private static final LaunchOrder PLAIN_ORDER = dev.gantry.agent.process.LaunchRequests.order(LaunchJobRequest.newBuilder()
            .setJobId(42).setScript("#!/bin/sh\n").setWorkDir("/w").build());

    static Stream<Arguments> fields() {
        return Stream.of(
                field("job_id", LaunchOrder::jobId, 107L),
                field("job_name", LaunchOrder::jobName, "sweep"),
                field("script", LaunchOrder::script, "#!/bin/sh\n"),
                field("argv", LaunchOrder::argv, List.of("a")),
                field("work_dir", LaunchOrder::workDir, "/w"),
                field("stdout_path", LaunchOrder::stdoutPattern, "%A_%a.out"),
                field("stderr_path", LaunchOrder::stderrPattern, "%A_%a.err"),
                field("environment", LaunchOrder::environment, Map.of("K", "v")),
                field("partition", LaunchOrder::partition, "gpu"),
                field("num_tasks", LaunchOrder::numTasks, 4),
                field("cpus_on_node", LaunchOrder::cpusOnNode, 8),
                field("memory_mb", LaunchOrder::memoryMb, 2048L),
                field("submit_dir", LaunchOrder::submitDir, "/home/alice"),
                field("submit_host", LaunchOrder::submitHost, "login1"),
                field("time_limit_seconds", LaunchOrder::timeLimitSeconds, 3600L),
                field("core_ids", LaunchOrder::coreIds, List.of(2, 3)),
                field("array", LaunchOrder::array, Optional.of(new LaunchOrder.ArrayTask(100, 7, 10, 0, 9, 1))),
                field("account", LaunchOrder::account, "physics"),
                field("qos", LaunchOrder::qos, "high"),
                field("restart_count", LaunchOrder::restartCount, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void toOrder_carriesField(String name, Function<LaunchOrder, Object> get, Object expected) {
        assertEquals(expected, get.apply(FULL_ORDER));
    }

    static Stream<Arguments> unsetFields() {
        return Stream.of(
                field("array unset: not an array task", LaunchOrder::array, Optional.empty()),
                field("account unset: empty", LaunchOrder::account, ""),
                field("qos unset: empty", LaunchOrder::qos, ""),
                field("restart_count unset: 0", LaunchOrder::restartCount, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsetFields")
    void toOrder_ofARequestWithoutThem(String name, Function<LaunchOrder, Object> get, Object expected) {
        assertEquals(expected, get.apply(PLAIN_ORDER));
    }

    private static Arguments field(String name, Function<LaunchOrder, Object> get, Object expected) {
        return Arguments.of(name, get, expected);
    }
}
