package dev.gantry.placement;

import java.util.BitSet;

/**
 * Choices over one node's units (select-svc's ledger, {@link NodeUse}), given the node's per-unit arrays: {@code holders[u]} is how many
 * jobs hold unit {@code u}, {@code partitions[u]} the partition id of the job that first took it while it was free.
 * Stateless, allocation-free except for the returned or given {@link BitSet}s; the arrays are read only.
 */
public final class UnitHolders {
    private UnitHolders() {}

    /**
     * How many units a job of partition {@code pid} may use when up to {@code maxShare} jobs may share a unit: the free
     * ones plus those its partition holds fewer than {@code maxShare} times.
     */
    public static int shareable(byte[] holders, short[] partitions, short pid, int maxShare) {
        int count = 0;
        for (int u = 0; u < holders.length; u++) {
            if (holders[u] == 0 || (holders[u] < maxShare && partitions[u] == pid)) {
                count++;
            }
        }
        return count;
    }

    /**
     * Sets in {@code into} up to {@code needed} units for a job of partition {@code pid}: free units first (lowest id),
     * then, when {@code maxShare > 1}, the least-held units of its partition.
     */
    public static void pick(byte[] holders, short[] partitions, short pid, int needed, int maxShare, BitSet into) {
        int got = 0;
        for (int level = 0; level < Math.max(1, maxShare) && got < needed; level++) {
            for (int u = 0; u < holders.length && got < needed; u++) {
                if (holders[u] == level && (level == 0 || partitions[u] == pid)) {
                    into.set(u);
                    got++;
                }
            }
        }
    }

    /**
     * The units an allocation of partition {@code pid} that names none (CR_CPU and select/linear allocations travel as
     * counts) is taken to hold, as {@link #pick} would have chosen them: free units first (lowest id), then the
     * least-held units of its partition, then — an allocation beyond what sharing allows — the least-held of any;
     * fewer when the node has fewer units. select-svc's ledger and {@link NodeUse} both count such allocations by it.
     */
    public static BitSet assumed(byte[] holders, short[] partitions, short pid, int count) {
        BitSet units = new BitSet();
        int got = 0;
        for (int level = 0; got < count; level++) {
            boolean deeper = false;
            for (int u = 0; u < holders.length && got < count; u++) {
                if (holders[u] == level && (level == 0 || partitions[u] == pid)) {
                    units.set(u);
                    got++;
                }
                deeper |= holders[u] > level;
            }
            if (!deeper) {
                break;
            }
        }
        if (got < count) {
            BitSet rest = lowest(holders, count, units);
            units.or(rest);
        }
        return units;
    }

    /**
     * {@code taken} plus the least-held other units, lowest id first within a level, whatever their partition, up to
     * {@code count} in all; fewer when the node has fewer units.
     */
    private static BitSet lowest(byte[] holders, int count, BitSet taken) {
        BitSet units = (BitSet) taken.clone();
        for (int level = 0; units.cardinality() < count && level < Byte.MAX_VALUE; level++) {
            boolean any = false;
            for (int u = 0; u < holders.length && units.cardinality() < count; u++) {
                if (holders[u] == level && !taken.get(u)) {
                    units.set(u);
                }
                any |= holders[u] >= level;
            }
            if (!any) {
                break;
            }
        }
        return units;
    }

    /**
     * Adds ({@code sign > 0}) or removes one holder of each unit in {@code units} (ids past the node's are ignored); a
     * unit taken while free becomes partition {@code pid}'s. Returns the change in the node's free units.
     */
    public static int charge(byte[] holders, short[] partitions, BitSet units, short pid, int sign) {
        int freed = 0;
        for (int u = units.nextSetBit(0); u >= 0 && u < holders.length; u = units.nextSetBit(u + 1)) {
            if (sign > 0) {
                if (holders[u] == 0) {
                    freed--;
                    partitions[u] = pid;
                }
                holders[u]++;
            } else {
                holders[u]--;
                if (holders[u] == 0) {
                    freed++;
                }
            }
        }
        return freed;
    }
}
