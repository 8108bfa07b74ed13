package dev.gantry.select.placement;

import dev.gantry.select.model.Owner;
import java.util.List;

/**
 * What one job needs on one node.
 *
 * @param cpus      CPUs (at least 1; rounded up to whole cores under CR_Core, to the whole node under linear)
 * @param memoryMb  MiB; 0 = none charged
 * @param gres      GRES wanted on this node
 * @param wholeNode --exclusive, OverSubscribe=EXCLUSIVE: the node must be empty and the job takes all of it
 * @param maxShare  how many jobs of {@code partition} may hold one unit (OverSubscribe YES:n/FORCE:n), 1 = none
 * @param partition the job's partition: units are shared only among jobs of the same partition
 * @param owner     the job's user, user-exclusive when it asked --exclusive=user or the partition is ExclusiveUser=YES
 */
public record NodeDemand(long cpus, long memoryMb, List<GresRequest> gres, boolean wholeNode, int maxShare,
                         String partition, Owner owner) {

    public NodeDemand {
        gres = List.copyOf(gres);
        owner = owner == null ? Owner.NONE : owner;
    }
}
