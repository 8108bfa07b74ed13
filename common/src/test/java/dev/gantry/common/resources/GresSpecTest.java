package dev.gantry.common.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Slurm's GRES syntax, name[:type][:count] (https://slurm.schedmd.com/gres.html). */
class GresSpecTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            gpu,            gpu, '',   1
            gpu:2,          gpu, '',   2
            gpu:a100:2,     gpu, a100, 2
            gpu:a100,       gpu, a100, 1
            GPU:A100:2,     gpu, A100, 2
            gres/gpu:4,     gpu, '',   4
            mps:1K,         mps, '',   1024
            """)
    void parses(String raw, String name, String type, long count) {
        assertEquals(new GresSpec(name, type, count), GresSpec.parse(raw));
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            ""            | empty GRES specification
            gpu:a:b:1     | 'gpu:a:b:1' is not name[:type][:count]
            gpu:a100:x    | 'gpu:a100:x': 'x' is not a count
            2:gpu         | '2:gpu': '2' is not a GRES name
            gpu:99999999999999999999 | 'gpu:99999999999999999999': count 99999999999999999999 is too large
            """)
    void refuses(String raw, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> GresSpec.parse(raw)).getMessage());
    }

    @Test
    void untypedRequest_isServedByAnyType_typedOnlyByItsOwn() {
        List<GresSpec> node = List.of(GresSpec.parse("gpu:a100:2"), GresSpec.parse("gpu:v100:1"), GresSpec.parse("mps:100"));

        assertEquals(3, GresSpec.parse("gpu:1").availableIn(node));
        assertEquals(2, GresSpec.parse("gpu:a100:1").availableIn(node));
        assertEquals(0, GresSpec.parse("gpu:h100:1").availableIn(node));
        assertTrue(GresSpec.parse("gpu").servedBy(node.get(1)));
        assertFalse(GresSpec.parse("gpu:a100").servedBy(node.get(1)));
    }

    @Test
    void list_andSlurmText() {
        assertEquals(List.of(new GresSpec("gpu", "a100", 2), new GresSpec("mps", "", 10)), GresSpec.parseList("gpu:a100:2,mps:10"));
        assertEquals(List.of(), GresSpec.parseList(" "));
        assertEquals("gpu:a100:2", GresSpec.parse("gpu:a100:2").toString());
        assertEquals("gpu:1", GresSpec.parse("gpu").toString());
    }
}
