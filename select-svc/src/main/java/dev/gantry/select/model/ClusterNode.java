package dev.gantry.select.model;

import dev.gantry.api.v1.Node;
import dev.gantry.placement.CpuLayout;
import dev.gantry.placement.Gres;
import dev.gantry.placement.GresPool;
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

    public static ClusterNode from(Node node) {
        Gres gres = gres(node);
        return new ClusterNode(node.getName(), Math.max(0, node.getCpus()), Math.max(0, node.getSockets()),
                Math.max(0, node.getCoresPerSocket()), Math.max(0, node.getThreadsPerCore()),
                Math.max(0, node.getRealMemoryMb()), node.getWeight(), Set.copyOf(node.getFeaturesList()), gres,
                NodeState.from(node.getState()), node.getDrain(), node.getNotResponding());
    }

    private static Gres gres(Node node) {
        return new Gres(node.getGresList().stream()
                .filter(g -> !g.getName().isBlank() && g.getCount() >= 0)
                .map(g -> new GresPool(g.getName(), g.getType(), (int) Math.min(Integer.MAX_VALUE, g.getCount())))
                .toList());
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
