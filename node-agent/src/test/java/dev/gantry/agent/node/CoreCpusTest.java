package dev.gantry.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CoreCpusTest {

    @org.junit.jupiter.params.ParameterizedTest(name = "cores {0} on a {1}-CPU host -> {2}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = ';', value = {
        "0,1;     2; 0,1",
        "2,3;     2; 0,1",
        "1,3,5;   2; 1",
        "7;       8; 7",
    })
    void coreIds_wrapAroundTheHostsCores_forEmulatedNodes(String cores, int hostCpus, String expected) {
        List<Integer> ids = java.util.Arrays.stream(cores.split(",")).map(String::trim).map(Integer::valueOf).toList();

        assertEquals(expected, dev.gantry.agent.job.LaunchCommand.cpuList(CoreCpus.flat(hostCpus).cpusOf(ids)));
    }

    @Test
    void anEmulatedNodeWithMoreCoresThanTheHost_wrapsAround() {
        CoreCpus host = CoreCpus.flat(2);

        assertEquals(List.of(0, 1), host.cpusOf(List.of(0, 1, 2, 3)));
        assertEquals(List.of(1), host.cpusOf(List.of(5)));
    }

    @Test
    void threadsAreGroupedByPackageAndCore_inThatOrder() {
        long[][] topology = {{1, 0}, {0, 3}, {1, 0}, {0, 3}};
        CoreCpus host = CoreCpus.group("0-3", cpu -> topology[cpu], 4);

        assertEquals(List.of(List.of(1, 3), List.of(0, 2)), host.cores());
    }
}
