package dev.gantry.placement;

/**
 * A partition's (or the cluster's) memory defaults and limits in MiB; 0 = not set
 * (https://slurm.schedmd.com/slurm.conf.html#OPT_DefMemPerCPU). DefMemPerCPU and DefMemPerNode are mutually
 * exclusive, as are MaxMemPerCPU and MaxMemPerNode.
 */
public record MemoryLimits(long defPerCpuMb, long defPerNodeMb, long maxPerCpuMb, long maxPerNodeMb) {

    public static final MemoryLimits NONE = new MemoryLimits(0, 0, 0, 0);

    public MemoryLimits {
        if (defPerCpuMb < 0 || defPerNodeMb < 0 || maxPerCpuMb < 0 || maxPerNodeMb < 0) {
            throw new IllegalArgumentException("memory limits must not be negative");
        }
    }
}
