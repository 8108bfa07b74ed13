package dev.gantry.agent.node;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The host's cores in the order select/cons_tres numbers them (socket-major: socket 0's cores, then socket 1's), each
 * with its logical CPUs (its hardware threads). Under CR_Core a job is allocated core indices; binding it means
 * every thread of each of those cores, so a job on a ThreadsPerCore=2 node gets both siblings of its cores, not the
 * logical CPUs that happen to share the cores' numbers. An emulated node may declare more cores than the host has:
 * indices then wrap around the host's cores.
 *
 * @param cores each core's logical CPU ids, in cons_tres order
 */
public record CoreCpus(List<List<Integer>> cores) {

    public CoreCpus {
        cores = cores.stream().map(List::copyOf).toList();
        if (cores.isEmpty() || cores.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("every core needs at least one logical CPU");
        }
    }

    /** One core per logical CPU, numbered as the CPUs are: what a host without topology in /sys is taken to be. */
    public static CoreCpus flat(int cpus) {
        List<List<Integer>> cores = new ArrayList<>();
        for (int i = 0; i < Math.max(cpus, 1); i++) {
            cores.add(List.of(i));
        }
        return new CoreCpus(cores);
    }

    /**
     * Groups the CPUs of {@code online} (a Linux CPU list, as /sys/devices/system/cpu/online has it) by
     * {@code (physical_package_id, core_id)}, which {@code topologyOf} gives for a CPU; cores in (package, core)
     * order. No CPU online means {@link #flat} with {@code fallbackCpus}.
     */
    public static CoreCpus group(String online, java.util.function.IntFunction<long[]> topologyOf, int fallbackCpus) {
        Map<Long, TreeSet<Integer>> byCore = new TreeMap<>();
        for (int cpu : cpuList(online.trim())) {
            long[] pkgAndCore = topologyOf.apply(cpu);
            byCore.computeIfAbsent(pkgAndCore[0] << 32 | pkgAndCore[1], k -> new TreeSet<>()).add(cpu);
        }
        if (byCore.isEmpty()) {
            return flat(fallbackCpus);
        }
        List<List<Integer>> cores = new ArrayList<>();
        byCore.values().forEach(cpus -> cores.add(List.copyOf(cpus)));
        return new CoreCpus(cores);
    }

    /** The logical CPUs of the given core indices (each taken modulo the host's cores), sorted, without repeats. */
    public List<Integer> cpusOf(List<Integer> coreIndices) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (int index : coreIndices) {
            cpus.addAll(cores.get(Math.floorMod(index, cores.size())));
        }
        return List.copyOf(cpus);
    }

    /** A Linux CPU list ("0-3,8,10-11"). */
    static TreeSet<Integer> cpuList(String text) {
        TreeSet<Integer> out = new TreeSet<>(Comparator.naturalOrder());
        if (text.isEmpty()) {
            return out;
        }
        for (String part : text.split(",")) {
            int dash = part.indexOf('-');
            int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
            int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
            for (int c = from; c <= to; c++) {
                out.add(c);
            }
        }
        return out;
    }
}
