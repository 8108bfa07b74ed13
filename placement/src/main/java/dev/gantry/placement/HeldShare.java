package dev.gantry.placement;

import java.util.BitSet;
import java.util.Map;

/**
 * What one job holds on one node, as {@link NodeUse#hold} counts it.
 *
 * @param partition the job's partition: its units are shared only with jobs of the same partition
 * @param cpus      CPUs (0 while an operator keeps the job suspended: its CPUs are free, its memory and GRES held)
 * @param units     the unit ids held (core ids under CR_Core); empty = {@link UnitHolders#assumed}, as select-svc's
 *                  ledger counts allocations that name none
 * @param gres      GRES held, count by pool index on the node
 * @param wholeNode it holds the node whole (--exclusive, OverSubscribe=EXCLUSIVE)
 * @param owner     its user, user-exclusive when it or its partition asks
 * @param cpusFreed it is being suspended for the job checked (PreemptMode=SUSPEND): its units and its place among the
 *                  node's owners are free, its memory and GRES stay held (https://slurm.schedmd.com/preempt.html)
 */
public record HeldShare(String partition, int cpus, long memoryMb, BitSet units, Map<Integer, Integer> gres,
                        boolean wholeNode, Owner owner, boolean cpusFreed) {

    public HeldShare {
        units = (BitSet) units.clone();
        gres = Map.copyOf(gres);
        owner = owner == null ? Owner.NONE : owner;
    }
}
