package dev.gantry.scheduler.priority;

import java.util.Map;

/**
 * Counts of trackable resources a job requests or holds: CPUs, memory (MiB), nodes and generic resources by name
 * ({@code gpu} → count). TRES names as Slurm prints them: {@code cpu}, {@code mem}, {@code node},
 * {@code gres/<name>}.
 */
public record TresAmount(long cpus, long memMb, long nodes, Map<String, Long> gres) {

    public TresAmount {
        gres = Map.copyOf(gres);
    }

    public static TresAmount of(long cpus, long memMb, long nodes) {
        return new TresAmount(cpus, memMb, nodes, Map.of());
    }

    public static TresAmount of(long cpus, long memMb, long nodes, long gpus) {
        return new TresAmount(cpus, memMb, nodes, gpus == 0 ? Map.of() : Map.of("gpu", gpus));
    }

    /** The count of a TRES by its Slurm name (memory in MiB); 0 for one not held. */
    public long count(String tres) {
        return switch (tres) {
            case "cpu" -> cpus;
            case "mem" -> memMb;
            case "node" -> nodes;
            default -> tres.startsWith("gres/") ? gres.getOrDefault(tres.substring(5), 0L) : 0L;
        };
    }
}
