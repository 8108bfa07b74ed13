package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.config.TopologyConfig.SwitchConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** topology.conf, tree form (https://slurm.schedmd.com/topology.conf.html). */
class TopologyParserTest {

    private static final Path FILE = Path.of("conf/topology.conf");
    private static final Set<String> NODES = Set.of("n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8");

    @Test
    void twoLevelTree_parentsAndLevels() {
        TopologyConfig t = TopologyParser.parse(FILE, """
                # leaf switches
                SwitchName=s1 Nodes=n[1-4] LinkSpeed=100
                SwitchName=s2 Nodes=n[5-8]
                SwitchName=top Switches=s[1-2]
                """, NODES);

        assertEquals(List.of(
                new SwitchConfig("s1", "top", 0, List.of("n1", "n2", "n3", "n4"), List.of(), 2),
                new SwitchConfig("s2", "top", 0, List.of("n5", "n6", "n7", "n8"), List.of(), 3),
                new SwitchConfig("top", "", 1, List.of(), List.of("s1", "s2"), 4)), t.switches());
        assertEquals("s2", t.leafOf("n6").orElseThrow().name());
    }

    @Test
    void upperSwitchMayComeFirst_levelsCountFromTheLeaves() {
        TopologyConfig t = TopologyParser.parse(FILE, """
                SwitchName=core Switches=agg
                SwitchName=agg Switches=s1,s2
                SwitchName=s1 Nodes=n1
                SwitchName=s2 Nodes=n2
                """, NODES);
        assertEquals(2, t.find("core").orElseThrow().level());
        assertEquals("core", t.find("agg").orElseThrow().parent());
    }

    @Test
    void linesContinue_afterABackslash_asInTheClusterConfig_evenOnTheLastLine() {
        TopologyConfig t = TopologyParser.parse(FILE, "SwitchName=s1 \\\n  Nodes=n[1-2] # two nodes\nSwitchName=top \\\n"
                + "Switches=s1 \\", NODES);

        assertEquals(List.of(new SwitchConfig("s1", "top", 0, List.of("n1", "n2"), List.of(), 1),
                new SwitchConfig("top", "", 1, List.of(), List.of("s1"), 3)), t.switches());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            unknown key           | SwitchName=s1 Nodes=n1 Color=red                  | conf/topology.conf:1: Color: unknown key (SwitchName, Switches, Nodes, LinkSpeed)
            no SwitchName first   | Nodes=n1 SwitchName=s1                            | conf/topology.conf:1: SwitchName: each line must start with SwitchName=
            neither nodes nor sw  | SwitchName=s1                                     | conf/topology.conf:1: SwitchName: s1: give either Nodes= (a leaf switch) or Switches= (an upper switch)
            both                  | SwitchName=s1 Nodes=n1 Switches=s2                | conf/topology.conf:1: SwitchName: s1: give either Nodes= (a leaf switch) or Switches= (an upper switch)
            unknown node          | SwitchName=s1 Nodes=n[8-9]                        | conf/topology.conf:1: Nodes: unknown node n9 (not on a NodeName= line of the config)
            node on two switches  | SwitchName=s1 Nodes=n1\\nSwitchName=s2 Nodes=n1   | conf/topology.conf:2: Nodes: node n1 is already on switch s1 (line 1)
            defined twice         | SwitchName=s1 Nodes=n1\\nSwitchName=s1 Nodes=n2   | conf/topology.conf:2: SwitchName: s1 is already defined on line 1
            undefined child       | SwitchName=top Switches=s[1-2]\\nSwitchName=s1 Nodes=n1 | conf/topology.conf:1: Switches: unknown switch s2 (define it on a SwitchName= line)
            two parents           | SwitchName=s1 Nodes=n1\\nSwitchName=a Switches=s1\\nSwitchName=b Switches=s1 | conf/topology.conf:3: Switches: switch s1 is already under a
            cycle                 | SwitchName=a Switches=b\\nSwitchName=b Switches=a | conf/topology.conf:1: Switches: switch a is below itself (a cycle)
            bad host list         | SwitchName=s1 Nodes=n[1-                          | conf/topology.conf:1: Nodes: unbalanced '[' in 'n[1-'
            """)
    void problems_fileLineKeyWhatIsWrong(String name, String text, String expected) {
        ConfigException e = assertThrows(ConfigException.class,
                () -> TopologyParser.parse(FILE, text.replace("\\n", "\n"), NODES));
        assertEquals(List.of(expected), e.problems());
    }

    @Test
    void clusterConfig_loadsTopologyConfNextToIt_forTopologyTree(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("topology.conf"), "SwitchName=s1 Nodes=n[1-2]\nSwitchName=s2 Nodes=n3\nSwitchName=t Switches=s[1-2]\n");
        Path conf = Files.writeString(dir.resolve("gantry.conf"), "TopologyPlugin=topology/tree\nNodeName=n[1-3]\n");

        ClusterConfig c = ConfigParser.parse(conf);

        assertEquals(List.of("s1", "s2", "t"), c.topology().switches().stream().map(SwitchConfig::name).toList());
    }

    @Test
    void clusterConfig_topologyFileKey_isRelativeToTheConfig_andItsProblemsAreReported(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("net"));
        Path topo = Files.writeString(dir.resolve("net/tree.conf"), "SwitchName=s1 Nodes=n[1-5]\n");
        Path conf = Files.writeString(dir.resolve("gantry.conf"),
                "TopologyPlugin=topology/tree\nTopologyFile=net/tree.conf\nNodeName=n[1-3]\n");

        ConfigException e = assertThrows(ConfigException.class, () -> ConfigParser.parse(conf));

        assertEquals(List.of(topo + ":1: Nodes: unknown node n4 (not on a NodeName= line of the config)",
                topo + ":1: Nodes: unknown node n5 (not on a NodeName= line of the config)"), e.problems());
    }

    @Test
    void clusterConfig_treeWithoutATopologyFile_namesTheKey(@TempDir Path dir) throws IOException {
        Path conf = Files.writeString(dir.resolve("gantry.conf"), "NodeName=n1\nTopologyPlugin=topology/tree\n");

        ConfigException e = assertThrows(ConfigException.class, () -> ConfigParser.parse(conf));

        assertEquals(List.of(conf + ":2: TopologyPlugin: topology/tree needs a topology file; "
                + dir.toAbsolutePath().resolve("topology.conf") + " cannot be read (or set TopologyFile=)"), e.problems());
    }

    @Test
    void clusterConfig_flatByDefault() {
        assertTrue(ConfigParser.parse(Path.of("x.conf"), "NodeName=n1\n").topology().isFlat());
    }
}
