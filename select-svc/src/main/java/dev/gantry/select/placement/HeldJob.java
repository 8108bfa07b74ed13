package dev.gantry.select.placement;

import dev.gantry.placement.Owner;
import dev.gantry.select.model.NodeAllotment;
import java.util.List;

/**
 * What one job holds in a {@link Ledger}: its resolved shares (unit ids assigned) and what decides whether it keeps
 * other jobs off its nodes. An immutable value; ledger copies share them.
 *
 * @param owner     whose, and whether user-exclusive (its partition's ExclusiveUser=YES included)
 * @param end       when it is expected to end (epoch seconds; {@link #NEVER} when unknown)
 * @param cpusFreed its units (and its place among the node's owners) are freed ({@link Ledger#releaseCpus}); its
 *                  memory and GRES are still counted
 * @param suspended the replica shows it suspended (by gang scheduling or preemption): it still holds its units, but
 *                  is no job mate ({@link JobMate})
 */
record HeldJob(String partition, List<NodeAllotment> shares, boolean wholeNode, Owner owner, long end, boolean cpusFreed,
               boolean suspended) {

    /** For {@link #end}: no known end. */
    static final long NEVER = Long.MAX_VALUE;

    /** A running job. */
    HeldJob(String partition, List<NodeAllotment> shares, boolean wholeNode, Owner owner, long end) {
        this(partition, shares, wholeNode, owner, end, false, false);
    }
}
