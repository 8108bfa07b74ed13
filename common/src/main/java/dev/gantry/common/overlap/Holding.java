package dev.gantry.common.overlap;

import java.util.Arrays;
import java.util.List;

/**
 * A job's resources resolved against a {@link NodeTable}: per node held, its index, CPU count and core ids. Arrays
 * are owned by this record and never changed after construction.
 */
public record Holding(int[] nodes, int[] cpus, int[][] cores) {

    public static Holding of(List<NodeHold> holds, NodeTable table) {
        int[] nodes = new int[holds.size()];
        int[] cpus = new int[holds.size()];
        int[][] cores = new int[holds.size()][];
        for (int i = 0; i < holds.size(); i++) {
            NodeHold hold = holds.get(i);
            nodes[i] = table.indexOf(hold.node());
            cpus[i] = hold.cpus();
            cores[i] = hold.coreIds().stream().mapToInt(Integer::intValue).toArray();
        }
        return new Holding(nodes, cpus, cores);
    }

    /** Same nodes, CPUs and cores (records compare arrays by identity). */
    public boolean sameAs(Holding other) {
        return Arrays.equals(nodes, other.nodes) && Arrays.equals(cpus, other.cpus) && Arrays.deepEquals(cores, other.cores);
    }
}
