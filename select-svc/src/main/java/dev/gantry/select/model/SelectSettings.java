package dev.gantry.select.model;

import java.util.Locale;

/**
 * SelectType= and SelectTypeParameters= (https://slurm.schedmd.com/slurm.conf.html#OPT_SelectTypeParameters).
 * cons_tres: CR_CPU and CR_CPU_Memory count CPUs; CR_Core, CR_Core_Memory (and CR_Socket*, treated as cores) allocate
 * specific cores. linear: whole nodes; CR_Memory also tracks memory. Blank is Gantry's default: CR_Core_Memory
 * (linear: CR_Memory), so memory is tracked.
 */
public record SelectSettings(SelectMode mode, String parameters) {

    public static final SelectSettings DEFAULT = new SelectSettings(SelectMode.CONS_TRES, "");

    public static SelectSettings from(dev.gantry.api.v1.SelectSettings settings) {
        return new SelectSettings(SelectMode.fromSelectType(settings.getSelectType()), settings.getSelectTypeParameters());
    }

    public ResourceUnit unit() {
        if (mode == SelectMode.LINEAR) {
            return ResourceUnit.NODE;
        }
        return normalized().startsWith("CR_CPU") ? ResourceUnit.CPU : ResourceUnit.CORE;
    }

    /** Whether memory is a consumable resource (…_MEMORY, or blank). */
    public boolean memoryTracked() {
        String p = normalized();
        return p.isEmpty() || p.contains("MEMORY");
    }

    private String normalized() {
        return parameters.trim().toUpperCase(Locale.ROOT);
    }
}
