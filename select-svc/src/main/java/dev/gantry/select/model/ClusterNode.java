package dev.gantry.select.model;

import dev.gantry.placement.CpuLayout;
import dev.gantry.placement.Gres;
import java.util.Set;

/**
 * A node as placement sees it: hardware, Weight, Features, Gres and state
 * (https://slurm.schedmd.com/slurm.conf.html#SECTION_NODE-CONFIGURATION).
 *
 * @param cpus           configured CPUs
 * @param sockets        Sockets (0 = not configured: one socket)
 * @param coresPerSocket CoresPerSocket (0 = not configured: every CPU is a core)
 * @param threadsPerCore ThreadsPerCore (0 = not configured: 1)
 * @param realMemoryMb   RealMemory, MiB
 * @param weight         Weight=: lower is allocated first
 * @param drain          DRAIN (idle) / DRAINING (jobs still running): no new jobs
 * @param notResponding  heartbeats stopped (sinfo's '*')
 */
public record ClusterNode(String name, int cpus, int sockets, int coresPerSocket, int threadsPerCore, long realMemoryMb,
                          int weight, Set<String> features, Gres gres, NodeState state, boolean drain,
                          boolean notResponding) implements CpuLayout {

    public ClusterNode {
        features = Set.copyOf(features);
    }

    /** A plain node: one thread per core, no features or GRES; usable means IDLE, else DOWN. */
    public ClusterNode(String name, int cpus, long realMemoryMb, int weight, boolean usable) {
        this(name, cpus, 0, 0, 0, realMemoryMb, weight, Set.of(), Gres.NONE, usable ? NodeState.IDLE : NodeState.DOWN,
                false, false);
    }

    /** Whether new jobs may be placed here (Slurm: IDLE/MIXED/ALLOCATED without DRAIN or '*'). */
    public boolean usable() {
        return state.up() && !drain && !notResponding;
    }

    /**
     * Physical cores: Sockets × CoresPerSocket when configured and consistent with CPUs, else one core per CPU (as
     * Slurm does when only CPUs= is given).
     */
    @Override
    public int cores() {
        return CpuLayout.coresOf(cpus, sockets, coresPerSocket);
    }

    /** sinfo's state name: DRAINED/DRAINING/DOWN/IDLE/MIXED/ALLOCATED, '*' appended when not responding. */
    public String displayState(boolean hasJobs) {
        String base = drain ? (hasJobs ? "DRAINING" : "DRAINED") : state.name();
        return notResponding ? base + "*" : base;
    }
}
