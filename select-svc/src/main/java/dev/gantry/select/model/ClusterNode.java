package dev.gantry.select.model;

import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;

/**
 * A node as placement sees it: its hardware, its Weight and whether new jobs may start on it.
 *
 * @param cpus         configured CPUs
 * @param realMemoryMb RealMemory, MiB
 * @param weight       Weight=: lower is allocated first
 * @param usable       up (IDLE, MIXED or ALLOCATED), not draining and responding; UNKNOWN and DOWN nodes are not
 */
public record ClusterNode(String name, int cpus, long realMemoryMb, int weight, boolean usable) {

    public static ClusterNode from(Node node) {
        return new ClusterNode(node.getName(), Math.max(0, node.getCpus()), Math.max(0, node.getRealMemoryMb()),
                node.getWeight(), isUsable(node));
    }

    /** Whether new jobs may be placed on {@code node} (Slurm: IDLE/MIXED/ALLOCATED without DRAIN or '*'). */
    static boolean isUsable(Node node) {
        boolean up = node.getState() == NodeState.NODE_STATE_IDLE
                || node.getState() == NodeState.NODE_STATE_MIXED
                || node.getState() == NodeState.NODE_STATE_ALLOCATED;
        return up && !node.getDrain() && !node.getNotResponding();
    }
}
