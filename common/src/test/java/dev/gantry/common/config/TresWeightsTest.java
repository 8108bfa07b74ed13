package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** TRESBillingWeights / PriorityWeightTRES syntax: memory weights per MiB, suffix = the unit the weight is per. */
class TresWeightsTest {

    @Test
    void issueExample_parsesWithMemoryPerGb() {
        TresWeights w = TresWeights.parse("CPU=1.0,Mem=0.152G,GRES/gpu=250");
        assertEquals(1.0, w.weight("cpu"));
        assertEquals(0.152 / 1024, w.weight("mem"), 1e-15);
        assertEquals(0.152, w.memPerGb(), 1e-12);
        assertEquals(250, w.weight("gres/gpu"));
        assertEquals(0, w.weight("node"), "not given: 0");
    }

    @ParameterizedTest(name = "Mem={0} is {1} per MiB")
    @CsvSource({"2, 2", "2M, 2", "2G, 0.001953125", "2K, 2048", "1T, 0.00000095367431640625"})
    void memorySuffix_namesTheUnitTheWeightIsPer(String value, double perMib) {
        assertEquals(perMib, TresWeights.parse("Mem=" + value).weight("mem"), 1e-18);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "CPU | 'CPU' is not TRES=weight",
        "CPU=x | 'CPU=x': 'x' is not a number",
        "CPU=-1 | 'CPU=-1': a weight must be a finite number >= 0",
        "CPU=2G | 'CPU=2G': only Mem takes a unit suffix",
        "Mem=2Q | 'Mem=2Q': unit must be K, M, G or T",
        "GPU=1 | 'GPU' is not a TRES (cpu, mem, node, billing, gres/NAME)",
        "CPU=1,cpu=2 | 'cpu' is given twice",
    })
    void badWeights_sayWhatIsWrong(String raw, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> TresWeights.parse(raw)).getMessage());
    }

    @Test
    void globalKeys_parseThroughTheConfig() {
        ClusterConfig c = ConfigParser.parse(Path.of("t.conf"), """
                TRESBillingWeights=CPU=1.0,Mem=0.25G,GRES/gpu=2.0
                PriorityWeightTRES=CPU=100,Mem=20G
                PriorityFlags=NO_NORMAL_TRES,max_tres
                FairShareType=LINEAR
                """);
        assertEquals(0.25, c.get(Keys.TRES_BILLING_WEIGHTS).memPerGb(), 1e-12);
        assertEquals(100, c.get(Keys.PRIORITY_WEIGHT_TRES).weight("cpu"));
        assertEquals(List.of("NO_NORMAL_TRES", "MAX_TRES"), c.get(Keys.PRIORITY_FLAGS));
        assertEquals("linear", c.get(Keys.FAIR_SHARE_TYPE));
    }

    @Test
    void badWeightsInTheConfig_nameFileLineAndKey() {
        var e = assertThrows(ConfigException.class, () -> ConfigParser.parse(Path.of("t.conf"),
                "ClusterName=c\nTRESBillingWeights=CPU=x\nPriorityWeightTRES=Mem=1Q"));
        assertEquals(List.of("t.conf:2: TRESBillingWeights: 'CPU=x': 'x' is not a number",
                "t.conf:3: PriorityWeightTRES: 'Mem=1Q': unit must be K, M, G or T"), e.problems());
    }

    @Test
    void defaults_areSlurms() {
        ClusterConfig c = ConfigParser.parse(Path.of("t.conf"), "");
        assertEquals(TresWeights.NONE, c.get(Keys.TRES_BILLING_WEIGHTS));
        assertEquals("classic", c.get(Keys.FAIR_SHARE_TYPE));
        assertEquals(List.of(), c.get(Keys.PRIORITY_FLAGS));
        assertEquals(List.of("NO_NORMAL_ALL", "NO_NORMAL_TRES", "NO_NORMAL_PART", "NO_NORMAL_QOS"),
                ConfigParser.parse(Path.of("t.conf"), "PriorityFlags=NO_NORMAL_ALL").get(Keys.PRIORITY_FLAGS));
    }

    @Test
    void unsupportedPriorityFlag_isRefused() {
        var e = assertThrows(ConfigException.class, () -> ConfigParser.parse(Path.of("t.conf"), "PriorityFlags=INCR_ONLY"));
        assertEquals(List.of("t.conf:1: PriorityFlags: 'INCR_ONLY' is not supported (Gantry implements NO_NORMAL_TRES, "
                + "NO_NORMAL_PART, NO_NORMAL_QOS, NO_NORMAL_ALL, MAX_TRES, NO_FAIR_TREE)"), e.problems());
        var f = assertThrows(ConfigException.class, () -> ConfigParser.parse(Path.of("t.conf"), "FairShareType=tree"));
        assertEquals(List.of("t.conf:1: FairShareType: 'tree' is not one of classic, linear"), f.problems());
    }
}
