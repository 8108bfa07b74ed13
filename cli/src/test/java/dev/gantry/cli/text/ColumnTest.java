package dev.gantry.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ColumnTest {

    @ParameterizedTest(name = "width {0}, right {1}, cut {2}: \"{3}\" prints \"{4}\"")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // width 0: whatever is needed, never cut
        "0 | false | true  | debug          | debug",
        "0 | true  | true  | debug          | debug",
        // right-justified: padded on the left
        "8 | true  | true  | debug          | \"   debug\"",
        // right-justified and cut: keeps the first characters
        "5 | true  | true  | verylongname   | veryl",
        // right-justified, not cut (durations, node lists): printed whole
        "5 | true  | false | 1-02:03:04     | 1-02:03:04",
        // left-justified: padded on the right
        "8 | false | true  | debug          | \"debug   \"",
        // left-justified always truncates (printf precision), even when not cut
        "5 | false | false | verylongname   | veryl",
        "5 | false | true  | abcde          | abcde",
    })
    void printsLikeSlurm(int width, boolean right, boolean cut, String value, String expected) {
        assertEquals(expected, new Column(width, right).render(value, cut));
    }

    @org.junit.jupiter.api.Test
    void nullPrintsAsSlurmsNull() {
        assertEquals("(null)", new Column(0, false).render(null, true));
    }
}
