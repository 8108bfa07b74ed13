package dev.gantry.select.model;

import dev.gantry.placement.Gres;
import dev.gantry.placement.GresPool;
import java.util.BitSet;
import java.util.Map;

/**
 * Resources one job holds (or is planned to get) on one node.
 *
 * @param cpus     CPUs (under select/linear all of the node's)
 * @param memoryMb MiB of memory (0 = memory not tracked or not requested)
 * @param units    the specific units held: core ids under CR_Core, CPU ids under CR_CPU, {0} for a whole node; empty
 *                 when unknown (the replica then assigns the lowest free ones)
 * @param gres     GRES counts held, by pool index on the node
 */
public record NodeShare(String node, int cpus, long memoryMb, BitSet units, Map<Integer, Integer> gres) {

    public NodeShare {
        units = (BitSet) units.clone();
        gres = Map.copyOf(gres);
    }

    public NodeShare(String node, int cpus, long memoryMb) {
        this(node, cpus, memoryMb, new BitSet(), Map.of());
    }

    @Override
    public BitSet units() {
        return (BitSet) units.clone();
    }

    /** How many units are held. */
    public int unitCount() {
        return units.cardinality();
    }

    public static NodeShare from(dev.gantry.api.v1.NodeAllocation allocation) {
        return from(allocation, Gres.NONE);
    }

    /**
     * The share an API allocation describes: its core ids as units (empty under CR_CPU and select/linear, where the
     * replica assigns units), and its GRES counted against the pool of the node with the same name and type.
     */
    public static NodeShare from(dev.gantry.api.v1.NodeAllocation allocation, Gres nodeGres) {
        BitSet units = new BitSet();
        allocation.getCoreIdsList().stream().filter(id -> id >= 0).forEach(units::set);
        Map<Integer, Integer> gres = new java.util.HashMap<>();
        for (dev.gantry.api.v1.Gres g : allocation.getGresList()) {
            for (int i = 0; i < nodeGres.pools().size(); i++) {
                GresPool pool = nodeGres.pools().get(i);
                if (pool.name().equals(g.getName()) && pool.type().equals(g.getType())) {
                    gres.merge(i, (int) Math.min(Integer.MAX_VALUE, Math.max(0, g.getCount())), Integer::sum);
                    break;
                }
            }
        }
        return new NodeShare(allocation.getNode(), Math.max(0, allocation.getCpus()), Math.max(0, allocation.getMemoryMb()),
                units, gres);
    }
}
