package dev.gantry.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FormatItemsTest {

    @ParameterizedTest(name = "\"{0}\": prefix \"{1}\"")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "\"JOBID %i\" | \"JOBID \"",
        "plain       | plain",
        "\"\"        | \"\"",
    })
    void textBeforeTheFirstPercentIsThePrefix(String format, String prefix) {
        assertEquals(prefix, FormatItems.parse(format, 10_000).prefix());
    }

    @Test
    void aFormatStartingWithPercentHasNoPrefix() {
        assertNull(FormatItems.parse("%i", 10_000).prefix());
    }

    @Test
    void itemsCarryColumnTypeAndSuffix_emptyItemsSkipped() {
        List<FormatItems.Spec> items = FormatItems.parse("%.18i %%9P|%j", 10_000).items();
        assertEquals(3, items.size());
        assertEquals(new Column(18, true), items.get(0).column());
        assertEquals('i', items.get(0).type());
        assertEquals(" ", items.get(0).suffix());
        assertEquals(new Column(9, false), items.get(1).column());
        assertEquals('P', items.get(1).type());
        assertEquals("|", items.get(1).suffix());
        assertEquals(new Column(0, false), items.get(2).column());
        assertEquals("", items.get(2).suffix());
    }

    @Test
    void anItemOfOnlyAWidthHasNoType() {
        FormatItems.Spec spec = FormatItems.parse("%.12", 10_000).items().get(0);
        assertFalse(spec.hasType());
        assertEquals(".12", spec.text());
        assertEquals(new Column(12, true), spec.column());
    }

    @Test
    void widthStopsTakingDigitsAtTheCap() {
        FormatItems.Spec spec = FormatItems.parse("%123456i", 10_000).items().get(0);
        assertEquals(12345, spec.column().width());
        assertTrue(spec.hasType());
        assertEquals('6', spec.type());
        assertEquals("i", spec.suffix());
    }

    private enum Letter implements FormatItems.Type {
        ID('i'), NAME('j');

        private final char code;

        Letter(char code) {
            this.code = code;
        }

        @Override
        public char code() {
            return code;
        }
    }

    @Test
    void typeOf_findsTheLetter_orNullForAnUnknownOrMissingOne() {
        List<FormatItems.Spec> items = FormatItems.parse("%i%j%x%.5", 10_000).items();
        assertEquals(Letter.ID, items.get(0).typeOf(Letter.values()));
        assertEquals(Letter.NAME, items.get(1).typeOf(Letter.values()));
        assertNull(items.get(2).typeOf(Letter.values()));
        assertNull(items.get(3).typeOf(Letter.values()));
    }
}
