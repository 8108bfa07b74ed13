package dev.gantry.cli.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ControllerFailureTest {

    @ParameterizedTest(name = "{0} ''{1}'' reads ''{2}''")
    @CsvSource(delimiter = '|', textBlock = """
            UNAVAILABLE       | database unavailable: the embedded PostgreSQL (pid 7) exited; nothing was changed, try again | database unavailable: the embedded PostgreSQL (pid 7) exited; nothing was changed, try again
            UNAVAILABLE       | io exception                                                                                  | Unable to contact Gantry controller (connect failure)
            DEADLINE_EXCEEDED | deadline exceeded after 9s                                                                    | Socket timed out on send/recv operation
            INVALID_ARGUMENT  | nodes: must be at least 1, got 0                                                              | nodes: must be at least 1, got 0
            RESOURCE_EXHAUSTED | gRPC message exceeds maximum size 11534336: 12584880                                         | the request is 12584880 bytes, more than the 11534336 bytes the controller takes (SchedulerParameters=max_script_size and room for the environment and options)
            RESOURCE_EXHAUSTED | gRPC message exceeds maximum size 268435456: 300000000                                       | the controller's answer is 300000000 bytes, more than the 268435456 bytes a command takes
            RESOURCE_EXHAUSTED | rate limit exceeded: 25 requests in 1 s by alice                                             | rate limit exceeded: 25 requests in 1 s by alice
            """)
    void describe_saysWhatTheControllerSaid_orSlurmsWordsForATransportFailure(Status.Code code, String description, String text) {
        assertEquals(text, ControllerFailure.describe(Status.fromCode(code).withDescription(description).asRuntimeException()));
    }
}
