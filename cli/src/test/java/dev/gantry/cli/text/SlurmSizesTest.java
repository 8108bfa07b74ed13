package dev.gantry.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlurmSizesTest {

    @ParameterizedTest(name = "{0} MiB prints {1}")
    @CsvSource({
        "0, 0",
        "100, 100M",
        "1024, 1G",
        "1536, 1536M",
        "2048, 2G",
        "1048576, 1T",
        "8000, 8000M",
    })
    void movesToTheLargestWholeUnit(long mb, String expected) {
        assertEquals(expected, SlurmSizes.mebibytes(mb));
    }
}
