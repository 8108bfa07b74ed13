package dev.gantry.select.placement;

import dev.gantry.select.model.Owner;
import java.util.List;

/**
 * What one job needs on one node.
 *
 * @param cpus          CPUs (at least 1; rounded up to whole cores under CR_Core, to the whole node under linear)
 * @param memoryMb      MiB; 0 = none charged
 * @param gres          GRES wanted on this node
 * @param wholeNode     --exclusive, OverSubscribe=EXCLUSIVE: the node must be empty and the job takes all of it
 * @param maxShare      how many jobs of {@code partition} may hold one unit (OverSubscribe YES:n/FORCE:n), 1 = none
 * @param partition     the job's partition: units are shared only among jobs of the same partition
 * @param owner         the job's user, user-exclusive when it asked --exclusive=user or the partition is ExclusiveUser=YES
 * @param holdersAtMost the sharing level tried: a unit the job takes may already be held by at most this many jobs (of
 *                      its partition) — 0 = free units only, {@code maxShare - 1} = all its partition allows. Selection
 *                      tries the levels from 0 up ({@link NodeSelector}); the partition's permission stays {@code maxShare}
 */
public record NodeDemand(long cpus, long memoryMb, List<GresRequest> gres, boolean wholeNode, int maxShare,
                         String partition, Owner owner, int holdersAtMost) {

    public NodeDemand {
        gres = List.copyOf(gres);
        owner = owner == null ? Owner.NONE : owner;
        holdersAtMost = Math.clamp(holdersAtMost, 0, Math.max(0, maxShare - 1));
    }

    /** At every sharing level its partition allows. */
    public NodeDemand(long cpus, long memoryMb, List<GresRequest> gres, boolean wholeNode, int maxShare,
                      String partition, Owner owner) {
        this(cpus, memoryMb, gres, wholeNode, maxShare, partition, owner, maxShare - 1);
    }

    /** The same demand at sharing level {@code level} (units held by at most that many jobs). */
    public NodeDemand atLevel(int level) {
        return level == holdersAtMost ? this
                : new NodeDemand(cpus, memoryMb, gres, wholeNode, maxShare, partition, owner, level);
    }
}
