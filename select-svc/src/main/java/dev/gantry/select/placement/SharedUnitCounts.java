package dev.gantry.select.placement;

import dev.gantry.placement.UnitHolders;
/**
 * A {@link Ledger}'s memo of how many units a partition may use on a node at each sharing level above 0 (what
 * {@link UnitHolders#shareable} counts), so that selection's scans of every member at a level cost O(1) per node that
 * did not change since the last scan. Per node it holds the counts of one partition; a change to the node's units
 * ({@link #changed}) forgets them.
 *
 * <p>Not thread-safe; one per ledger (a copy starts empty).
 */
final class SharedUnitCounts {

    private static final int LEVELS = 8;

    private final int nodes;
    private final short[] partitionOf; // whose counts are kept; 0 = none
    private final int[][] counts;      // [level][node]: 1 + the count; 0 = not known

    SharedUnitCounts(int nodes) {
        this.nodes = nodes;
        partitionOf = new short[nodes];
        counts = new int[LEVELS][];
    }

    /**
     * {@link UnitHolders#shareable} for {@code pid} at {@code level} (≥ 1: units held by at most that many jobs),
     * remembered until the node {@link #changed}; {@code holders} and {@code partitions} are the node's arrays.
     */
    int shareable(int node, byte[] holders, short[] partitions, short pid, int level) {
        if (level >= LEVELS) {
            return UnitHolders.shareable(holders, partitions, pid, level + 1);
        }
        if (partitionOf[node] != pid) {
            forget(node);
            partitionOf[node] = pid;
        }
        if (counts[level] == null) {
            counts[level] = new int[nodes];
        }
        if (counts[level][node] == 0) {
            counts[level][node] = 1 + UnitHolders.shareable(holders, partitions, pid, level + 1);
        }
        return counts[level][node] - 1;
    }

    /** The node's units changed: forget its counts. */
    void changed(int node) {
        if (partitionOf[node] != 0) {
            forget(node);
            partitionOf[node] = 0;
        }
    }

    private void forget(int node) {
        for (int[] level : counts) {
            if (level != null) {
                level[node] = 0;
            }
        }
    }
}
