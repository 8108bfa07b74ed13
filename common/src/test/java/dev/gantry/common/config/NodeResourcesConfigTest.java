package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.common.resources.GresSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Gres= and Features= on NodeName lines: parsed, and checked against GresTypes as Slurm does. */
class NodeResourcesConfigTest {

    private static final Path FILE = Path.of("conf/gantry.conf");

    @Test
    void gres_untypedAndTyped_areParsedPerNode() {
        ClusterConfig c = ConfigParser.parse(FILE, """
                GresTypes=gpu,mps
                NodeName=g1 CPUs=8 Gres=gpu:4
                NodeName=g2 CPUs=8 Gres=gpu:a100:2,gpu:v100:1,mps:100
                NodeName=c1 CPUs=8 Features=intel,ib
                """);

        assertEquals(List.of(new GresSpec("gpu", "", 4)), c.node("g1").orElseThrow().gres());
        assertEquals(List.of(new GresSpec("gpu", "a100", 2), new GresSpec("gpu", "v100", 1), new GresSpec("mps", "", 100)),
                c.node("g2").orElseThrow().gres());
        assertEquals(List.of("intel", "ib"), c.node("c1").orElseThrow().features());
    }

    @Test
    void gresTypes_mayComeAfterTheNodeLines() {
        ClusterConfig c = ConfigParser.parse(FILE, "NodeName=g1 Gres=gpu:1\nGresTypes=gpu\n");
        assertEquals(1, c.node("g1").orElseThrow().gres().get(0).count());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            gres not in GresTypes       | GresTypes=mps\\nNodeName=g1 Gres=gpu:2                | conf/gantry.conf:2: Gres: gpu is not in GresTypes (mps)
            no GresTypes at all         | NodeName=g1 Gres=gpu:2                               | conf/gantry.conf:1: Gres: gpu is not in GresTypes (none set; add GresTypes=gpu)
            malformed gres count        | GresTypes=gpu\\nNodeName=g1 Gres=gpu:a100:lots       | conf/gantry.conf:2: Gres: 'gpu:a100:lots': 'lots' is not a count
            too many gres fields        | GresTypes=gpu\\nNodeName=g1 Gres=gpu:a:b:2           | conf/gantry.conf:2: Gres: 'gpu:a:b:2' is not name[:type][:count]
            gres given twice            | GresTypes=gpu\\nNodeName=g1 Gres=gpu:1,gpu:2         | conf/gantry.conf:2: Gres: gpu is given twice
            feature with an operator    | NodeName=c1 Features=a&b                             | conf/gantry.conf:1: Features: 'a&b' is not a valid feature name (letters, digits, _ . - : +)
            """)
    void badGresOrFeatures_fileLineKeyWhatIsWrong(String name, String text, String expected) {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigParser.parse(FILE, text.replace("\\n", "\n")));
        assertEquals(List.of(expected), e.problems());
    }
}
