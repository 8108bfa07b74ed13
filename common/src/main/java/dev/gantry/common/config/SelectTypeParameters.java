package dev.gantry.common.config;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * SelectTypeParameters= (https://slurm.schedmd.com/slurm.conf.html#OPT_SelectTypeParameters): the resource select/cons_tres
 * allocates (CPUs, cores, sockets; or only memory) and whether it also tracks memory. Parsed once at load.
 */
public enum SelectTypeParameters {
    CR_CPU("CR_CPU"),
    CR_CORE("CR_Core"),
    CR_SOCKET("CR_Socket"),
    CR_MEMORY("CR_Memory"),
    CR_CPU_MEMORY("CR_CPU_Memory"),
    CR_CORE_MEMORY("CR_Core_Memory"),
    CR_SOCKET_MEMORY("CR_Socket_Memory");

    private final String configName;

    SelectTypeParameters(String configName) {
        this.configName = configName;
    }

    /** As Slurm spells it: CR_Core_Memory. */
    public String configName() {
        return configName;
    }

    /** Whether memory is a consumable resource (the _Memory variants and CR_Memory). */
    public boolean tracksMemory() {
        return configName.endsWith("Memory");
    }

    /** @throws IllegalArgumentException naming the values Gantry knows */
    public static SelectTypeParameters parse(String raw) {
        for (SelectTypeParameters p : values()) {
            if (p.configName.equalsIgnoreCase(raw.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("'" + raw + "' is not one of "
                + Arrays.stream(values()).map(SelectTypeParameters::configName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return configName;
    }
}
