package dev.gantry.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HardwareTest {

    private static final String MEMINFO = "MemTotal:       24684084 kB\nMemFree:        24026296 kB\n";

    /** cpuinfo of {@code sockets} × {@code cores} × {@code threads} CPUs, x86 layout. */
    private static String x86(int sockets, int cores, int threads) {
        StringBuilder s = new StringBuilder();
        int n = 0;
        for (int p = 0; p < sockets; p++) {
            for (int i = 0; i < cores * threads; i++) {
                s.append("processor\t: ").append(n++).append("\nphysical id\t: ").append(p)
                        .append("\nsiblings\t: ").append(cores * threads).append("\ncpu cores\t: ").append(cores).append("\n\n");
            }
        }
        return s.toString();
    }

    static Stream<Arguments> detected() {
        return Stream.of(
                Arguments.of("one socket, two cores", x86(1, 2, 1), new Hardware(2, 1, 2, 1, 24105)),
                Arguments.of("two sockets, hyperthreads", x86(2, 4, 2), new Hardware(16, 2, 4, 2, 24105)),
                Arguments.of("arm64: no socket or core lines", "processor\t: 0\nBogoMIPS\t: 50\n\nprocessor\t: 1\n", new Hardware(2, 1, 2, 1, 24105)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("detected")
    void detect(String name, String cpuinfo, Hardware expected) {
        assertEquals(expected, Hardware.detect(cpuinfo, MEMINFO));
    }

    @Test
    void detect_withoutProcessorsOrMemory_fails() {
        assertThrows(IllegalArgumentException.class, () -> Hardware.detect("", MEMINFO));
        assertThrows(IllegalArgumentException.class, () -> Hardware.detect(x86(1, 1, 1), "MemFree: 1 kB\n"));
    }

    private static final Hardware HOST = new Hardware(16, 2, 4, 2, 64000);

    static Stream<Arguments> emulated() {
        return Stream.of(
                Arguments.of("nothing emulated", new Hardware.Emulation(null, null, null, null, null), HOST),
                Arguments.of("memory only", new Hardware.Emulation(null, null, null, null, 4096L), new Hardware(16, 2, 4, 2, 4096)),
                Arguments.of("CPUs only: one socket of cores", new Hardware.Emulation(4, null, null, null, null), new Hardware(4, 1, 4, 1, 64000)),
                Arguments.of("full topology", new Hardware.Emulation(null, 2, 3, 2, 1024L), new Hardware(12, 2, 3, 2, 1024)),
                Arguments.of("CPUs and sockets: cores fill", new Hardware.Emulation(8, 2, null, null, null), new Hardware(8, 2, 4, 1, 64000)),
                Arguments.of("cores only", new Hardware.Emulation(null, null, 6, null, null), new Hardware(6, 1, 6, 1, 64000)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("emulated")
    void emulate(String name, Hardware.Emulation emulation, Hardware expected) {
        assertEquals(expected, HOST.emulate(emulation));
    }
}
