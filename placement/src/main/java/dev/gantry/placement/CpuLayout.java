package dev.gantry.placement;

/**
 * A node's CPUs as allocation counts them: configured CPUs, physical cores and the CPUs each core gives.
 * select-svc's node and scheduler-svc's node config both present themselves through {@link #of}.
 */
public interface CpuLayout {

    int cpus();

    /** Physical cores (see {@link #coresOf}). */
    int cores();

    /** CPUs each core provides (its threads when CPUs count threads): at least 1. */
    default int cpusPerCore() {
        int cores = cores();
        return cores == 0 ? 1 : Math.max(1, cpus() / cores);
    }

    /**
     * Physical cores: Sockets × CoresPerSocket when configured and consistent with CPUs, else one core per CPU (as
     * Slurm does when only CPUs= is given). Sockets and CoresPerSocket of 0 mean not configured.
     */
    static int coresOf(int cpus, int sockets, int coresPerSocket) {
        int cores = Math.max(1, sockets) * coresPerSocket;
        return coresPerSocket > 0 && cores <= cpus && cpus % cores == 0 ? cores : cpus;
    }

    /** The layout of a node configured with CPUs=, Sockets= and CoresPerSocket= (0 = not configured). */
    static CpuLayout of(int cpus, int sockets, int coresPerSocket) {
        int cores = coresOf(cpus, sockets, coresPerSocket);
        return new Fixed(cpus, cores);
    }

    /** A layout as plain numbers. */
    record Fixed(int cpus, int cores) implements CpuLayout {}
}
