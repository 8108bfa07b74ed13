package dev.gantry.placement;

/** What one allocation unit of a node is: the node (select/linear), a core (CR_Core) or a CPU (CR_CPU). */
public enum ResourceUnit {
    NODE, CORE, CPU;

    /** Units a node has: 1 under linear, its cores under CR_Core, its CPUs under CR_CPU. */
    public int unitsOf(CpuLayout node) {
        return switch (this) {
            case NODE -> 1;
            case CORE -> node.cores();
            case CPU -> node.cpus();
        };
    }

    /** Units that hold {@code cpus} CPUs on {@code node} (whole cores under CR_Core). */
    public int unitsFor(CpuLayout node, long cpus) {
        return switch (this) {
            case NODE -> cpus > 0 ? 1 : 0;
            case CORE -> Math.toIntExact(Math.ceilDiv(cpus, node.cpusPerCore()));
            case CPU -> Math.toIntExact(cpus);
        };
    }

    /** CPUs that {@code units} units give on {@code node}. */
    public long cpusOf(CpuLayout node, int units) {
        return switch (this) {
            case NODE -> units > 0 ? node.cpus() : 0;
            case CORE -> (long) units * node.cpusPerCore();
            case CPU -> units;
        };
    }
}
