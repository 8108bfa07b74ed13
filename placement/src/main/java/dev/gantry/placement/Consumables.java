package dev.gantry.placement;

import java.util.Locale;

/**
 * What SelectType= and SelectTypeParameters= make consumable
 * (https://slurm.schedmd.com/slurm.conf.html#OPT_SelectTypeParameters). cons_tres: CR_CPU and CR_CPU_Memory count
 * CPUs; CR_Core, CR_Core_Memory (and CR_Socket*, treated as cores) allocate specific cores. linear: whole nodes;
 * CR_Memory also tracks memory. Blank is Gantry's default CR_Core_Memory (linear: CR_Memory), so memory is tracked.
 *
 * @param unit          what one allocation unit of a node is
 * @param memoryTracked whether memory is a consumable resource (…_Memory, or blank)
 */
public record Consumables(ResourceUnit unit, boolean memoryTracked) {

    /** cons_tres with CR_Core_Memory. */
    public static final Consumables DEFAULT = of(false, "");

    /** @param linear SelectType=select/linear */
    public static Consumables of(boolean linear, String selectTypeParameters) {
        String p = selectTypeParameters == null ? "" : selectTypeParameters.trim().toUpperCase(Locale.ROOT);
        ResourceUnit unit = linear ? ResourceUnit.NODE : p.startsWith("CR_CPU") ? ResourceUnit.CPU : ResourceUnit.CORE;
        return new Consumables(unit, p.isEmpty() || p.contains("MEMORY"));
    }

    /** Whether SelectType= names select/linear (anything else, including unset, is cons_tres). */
    public static boolean linear(String selectType) {
        return selectType != null && "select/linear".equalsIgnoreCase(selectType.trim());
    }
}
