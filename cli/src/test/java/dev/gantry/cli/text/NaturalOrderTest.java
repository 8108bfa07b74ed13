package dev.gantry.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NaturalOrderTest {

    @ParameterizedTest(name = "{0} vs {1}: {2}")
    @CsvSource({
        "n2, n10, -1",
        "n19, n100, -1",
        "n10, n10, 0",
        "a1, b1, -1",
        "n1, n1a, -1",
    })
    void numbersCompareByValue(String a, String b, int sign) {
        assertEquals(sign, Integer.signum(NaturalOrder.INSTANCE.compare(a, b)));
        assertEquals(-sign, Integer.signum(NaturalOrder.INSTANCE.compare(b, a)));
    }
}
