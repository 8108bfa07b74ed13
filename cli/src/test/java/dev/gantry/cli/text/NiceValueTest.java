package dev.gantry.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NiceValueTest {

    @ParameterizedTest(name = "\"{0}\" is {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "0           | 0",
        "+15         | 15",
        "-15         | -15",
        "\" 7 \"     | 7",
        "2147483645  | 2147483645",
        "-2147483645 | -2147483645",
    })
    void parsesSignedWholeNumbersWithinRange(String text, int expected) throws NiceValue.Invalid {
        assertEquals(expected, NiceValue.parse(text));
    }

    @ParameterizedTest(name = "\"{0}\" is not a number")
    @ValueSource(strings = {"", " ", "ten", "1.5", "--1", "+", "1e3"})
    void refusesTextsThatAreNoNumber(String text) {
        assertEquals(false, assertThrows(NiceValue.Invalid.class, () -> NiceValue.parse(text)).outOfRange());
    }

    @ParameterizedTest(name = "\"{0}\" is out of range")
    @ValueSource(strings = {"2147483646", "-2147483646", "9223372036854775807", "-9223372036854775808",
        "99999999999999999999"})
    void refusesNumbersBeyondTheLimit(String text) {
        assertEquals(true, assertThrows(NiceValue.Invalid.class, () -> NiceValue.parse(text)).outOfRange());
    }
}
