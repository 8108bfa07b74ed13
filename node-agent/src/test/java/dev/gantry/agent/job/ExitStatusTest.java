package dev.gantry.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExitStatusTest {

    @ParameterizedTest(name = "exitValue {0} -> {1}:{2}")
    @CsvSource({
        "0,   0,   0",
        "3,   3,   0",
        "127, 127, 0",
        "128, 128, 0",
        "137, 0,   9",
        "143, 0,   15",
        "192, 0,   64",
        "193, 193, 0",
        "255, 255, 0",
    })
    void fromExitValue_readsSignalDeathsAs128PlusN(int exitValue, int code, int signal) {
        assertEquals(new ExitStatus(code, signal), ExitStatus.fromExitValue(exitValue));
    }
}
