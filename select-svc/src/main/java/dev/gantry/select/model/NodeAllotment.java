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
public record NodeAllotment(String node, int cpus, long memoryMb, BitSet units, Map<Integer, Integer> gres) {

    public NodeAllotment {
        units = (BitSet) units.clone();
        gres = Map.copyOf(gres);
    }

    public NodeAllotment(String node, int cpus, long memoryMb) {
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

    /**
     * GRES held by name and type, as an allocation reports them, counted by pool index against {@code nodeGres}: each
     * goes to the pool of the same name and type; one the node has no pool for is not counted.
     *
     * @param held (name, type, count) of each GRES entry, in the order reported
     */
    public static Map<Integer, Integer> gresByPool(java.util.List<GresPool> held, Gres nodeGres) {
        Map<Integer, Integer> gres = new java.util.HashMap<>();
        for (GresPool g : held) {
            for (int i = 0; i < nodeGres.pools().size(); i++) {
                GresPool pool = nodeGres.pools().get(i);
                if (pool.name().equals(g.name()) && pool.type().equals(g.type())) {
                    gres.merge(i, g.count(), Integer::sum);
                    break;
                }
            }
        }
        return gres;
    }
}
