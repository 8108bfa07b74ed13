package dev.gantry.agent.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.agent.node.CoreCpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCoresTest {

    /** A fake /sys/devices/system/cpu: {@code topology[cpu] = {package, core}}. */
    private static Path sys(Path dir, String online, int[][] topology) throws IOException {
        Files.writeString(dir.resolve("online"), online + "\n");
        for (int cpu = 0; cpu < topology.length; cpu++) {
            Path t = Files.createDirectories(dir.resolve("cpu" + cpu).resolve("topology"));
            Files.writeString(t.resolve("physical_package_id"), topology[cpu][0] + "\n");
            Files.writeString(t.resolve("core_id"), topology[cpu][1] + "\n");
        }
        return dir;
    }

    @Test
    void hyperthreadedHost_aCoreIndexBindsBothOfItsThreads(@TempDir Path dir) throws IOException {
        // Linux numbers the first thread of every core before the second: cpu0-3 and cpu4-7 are siblings
        CoreCpus host = HostCores.read(sys(dir, "0-7", new int[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 0}, {0, 1}, {1, 0}, {1, 1}}), 8);

        assertEquals(List.of(List.of(0, 4), List.of(1, 5), List.of(2, 6), List.of(3, 7)), host.cores());
        assertEquals(List.of(0, 4), host.cpusOf(List.of(0)));
        assertEquals(List.of(2, 3, 6, 7), host.cpusOf(List.of(2, 3)), "socket 1's cores, socket-major as cons_tres numbers them");
    }

    @Test
    void coreIdsNeedNotBeDense_andOfflineCpusAreLeftOut(@TempDir Path dir) throws IOException {
        CoreCpus host = HostCores.read(sys(dir, "0-2", new int[][] {{0, 0}, {0, 4}, {0, 8}, {0, 12}}), 4);

        assertEquals(List.of(List.of(0), List.of(1), List.of(2)), host.cores());
    }

    @Test
    void aHostThatDoesNotDescribeItsTopology_countsEachCpuAsACore(@TempDir Path dir) {
        assertEquals(CoreCpus.flat(3), HostCores.read(dir.resolve("missing"), 3));
    }
}
