package dev.gantry.agent.process;

import dev.gantry.agent.node.CoreCpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads this host's cores from /sys for CR_Core binding ({@link CoreCpus}). */
final class HostCores {
    private HostCores() {}

    static final Path SYS_CPU = Path.of("/sys/devices/system/cpu");

    /**
     * {@code online}, and each online CPU's {@code topology/physical_package_id} and {@code core_id}, under
     * {@code sysCpu}; a host that does not describe them is taken as one core per CPU ({@code fallbackCpus}).
     */
    static CoreCpus read(Path sysCpu, int fallbackCpus) {
        try {
            return CoreCpus.group(Files.readString(sysCpu.resolve("online")), cpu -> {
                Path topology = sysCpu.resolve("cpu" + cpu).resolve("topology");
                return new long[] {number(topology.resolve("physical_package_id")), number(topology.resolve("core_id"))};
            }, fallbackCpus);
        } catch (IOException | RuntimeException e) {
            return CoreCpus.flat(fallbackCpus);
        }
    }

    private static long number(Path file) {
        try {
            return Long.parseLong(Files.readString(file).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
