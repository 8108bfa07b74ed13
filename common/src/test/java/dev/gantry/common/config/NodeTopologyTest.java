package dev.gantry.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Slurm's rules for CPUs, Sockets, CoresPerSocket and ThreadsPerCore
 * (https://slurm.schedmd.com/slurm.conf.html#OPT_CPUs, src/common/read_config.c): cores and threads default
 * to 1; a missing Sockets is CPUs/(CoresPerSocket*ThreadsPerCore) when that divides evenly, else 1; a missing
 * CPUs is Sockets*CoresPerSocket*ThreadsPerCore; a given CPUs must equal Sockets, Sockets*CoresPerSocket or
 * Sockets*CoresPerSocket*ThreadsPerCore (Slurm resets it with an error; Gantry refuses the file).
 */
class NodeTopologyTest {

    private static NodeConfig node(String settings) {
        return ConfigParser.parse(Path.of("t.conf"), "NodeName=n1 " + settings).node("n1").orElseThrow();
    }

    @ParameterizedTest(name = "[{0}] gives CPUs={1} Sockets={2} CoresPerSocket={3} ThreadsPerCore={4}")
    @CsvSource(delimiter = '|', value = {
        "''                                             | 1  | 1 | 1 | 1",
        "CPUs=8                                         | 8  | 8 | 1 | 1",
        "Procs=8                                        | 8  | 8 | 1 | 1",
        "Sockets=2                                      | 2  | 2 | 1 | 1",
        "CoresPerSocket=4                               | 4  | 1 | 4 | 1",
        "ThreadsPerCore=2                               | 2  | 1 | 1 | 2",
        "Sockets=2 CoresPerSocket=4 ThreadsPerCore=2    | 16 | 2 | 4 | 2",
        "CPUs=16 CoresPerSocket=8                       | 16 | 2 | 8 | 1",
        "CPUs=16 ThreadsPerCore=2                       | 16 | 8 | 1 | 2",
        "CPUs=16 CoresPerSocket=4 ThreadsPerCore=2      | 16 | 2 | 4 | 2",
        "CPUs=16 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2 | 16 | 2 | 4 | 2",
        "CPUs=8 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2  | 8  | 2 | 4 | 2",
        "CPUs=2 Sockets=2 CoresPerSocket=4              | 2  | 2 | 4 | 1",
        "CPUs=4 Sockets=4                               | 4  | 4 | 1 | 1",
        "CPUs=4 CoresPerSocket=4                        | 4  | 1 | 4 | 1",
        "CPUs=8 Procs=4                                 | 8  | 8 | 1 | 1",
    })
    void topology_followsSlurmDefaults(String settings, int cpus, int sockets, int cores, int threads) {
        NodeConfig n = node(settings);
        assertEquals(List.of(cpus, sockets, cores, threads),
                List.of(n.cpus(), n.sockets(), n.coresPerSocket(), n.threadsPerCore()));
    }

    @ParameterizedTest(name = "[{0}] is refused: {1}")
    @CsvSource(delimiter = '|', value = {
        "CPUs=6 CoresPerSocket=4                | CPUs=6 does not match Sockets*CoresPerSocket*ThreadsPerCore=4",
        "CPUs=3 Sockets=2                       | CPUs=3 does not match Sockets*CoresPerSocket*ThreadsPerCore=2",
        "CPUs=5 Sockets=2 CoresPerSocket=2      | CPUs=5 does not match Sockets*CoresPerSocket*ThreadsPerCore=4",
        "CPUs=12 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2 | CPUs=12 does not match Sockets*CoresPerSocket*ThreadsPerCore=16",
    })
    void topology_inconsistentCpusAreRefused(String settings, String what) {
        ConfigException e = assertThrows(ConfigException.class, () -> node(settings));
        assertEquals(List.of("t.conf:1: CPUs: " + what), e.problems());
    }

    @Test
    void topology_tooManyCpusIsRefusedNotOverflowed() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> node("Sockets=65535 CoresPerSocket=65535 ThreadsPerCore=65535"));
        assertEquals(List.of("t.conf:1: CPUs: Sockets*CoresPerSocket*ThreadsPerCore=281462092005375 is more than 1048576"),
                e.problems());
    }

    @Test
    void nodeNameDefault_suppliesTopologyToLaterLines_andALineOverridesIt() {
        ClusterConfig c = ConfigParser.parse(Path.of("t.conf"), """
                NodeName=DEFAULT CPUs=8 CoresPerSocket=4 RealMemory=1000
                NodeName=a[1-2]
                NodeName=DEFAULT RealMemory=2000
                NodeName=b CPUs=4
                """);
        NodeConfig a2 = c.node("a2").orElseThrow();
        NodeConfig b = c.node("b").orElseThrow();
        assertEquals(List.of(8, 2, 4, 1000L), List.of(a2.cpus(), a2.sockets(), a2.coresPerSocket(), a2.realMemoryMb()));
        assertEquals(List.of(4, 1, 4, 2000L), List.of(b.cpus(), b.sockets(), b.coresPerSocket(), b.realMemoryMb()));
    }
}
