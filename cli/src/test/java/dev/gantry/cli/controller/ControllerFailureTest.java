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
            """)
    void describe_saysWhatTheControllerSaid_orSlurmsWordsForATransportFailure(Status.Code code, String description, String text) {
        assertEquals(text, ControllerFailure.describe(Status.fromCode(code).withDescription(description).asRuntimeException()));
    }
}
