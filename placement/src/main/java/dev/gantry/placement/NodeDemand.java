package dev.gantry.placement;

import java.util.List;

/**
 * What one job needs on one node.
 *
 * @param cpus          CPUs (at least 1; rounded up to whole cores under CR_Core, to the whole node under linear)
 * @param memoryMb      MiB for {@code cpus} CPUs; 0 = none charged. What a node is charged is {@link #memoryTaken}
 * @param memPerCpuMb   MiB per allocated CPU ({@code --mem-per-cpu}, DefMemPerCPU); 0 = {@code memoryMb} is per node
 * @param gres          GRES wanted on this node
 * @param wholeNode     --exclusive, OverSubscribe=EXCLUSIVE: the node must be empty and the job takes all of it
 * @param maxShare      how many jobs of {@code partition} may hold one unit (OverSubscribe YES:n/FORCE:n), 1 = none
 * @param partition     the job's partition: units are shared only among jobs of the same partition
 * @param owner         the job's user, user-exclusive when it asked --exclusive=user or the partition is ExclusiveUser=YES
 * @param holdersAtMost the sharing level tried: a unit the job takes may already be held by at most this many jobs (of
 *                      its partition) — 0 = free units only, {@code maxShare - 1} = all its partition allows. Selection
 *                      tries the levels from 0 up (select-svc's NodeSelector); the partition's permission stays {@code maxShare}
 */
public record NodeDemand(long cpus, long memoryMb, long memPerCpuMb, List<GresRequest> gres, boolean wholeNode,
                         int maxShare, String partition, Owner owner, int holdersAtMost) {

    public NodeDemand {
        gres = List.copyOf(gres);
        owner = owner == null ? Owner.NONE : owner;
        holdersAtMost = Math.clamp(holdersAtMost, 0, Math.max(0, maxShare - 1));
    }

    /** At every sharing level its partition allows. */
    public NodeDemand(long cpus, long memoryMb, long memPerCpuMb, List<GresRequest> gres, boolean wholeNode,
                      int maxShare, String partition, Owner owner) {
        this(cpus, memoryMb, memPerCpuMb, gres, wholeNode, maxShare, partition, owner, maxShare - 1);
    }

    /** Memory per node: {@code memoryMb} on every node. */
    public NodeDemand(long cpus, long memoryMb, List<GresRequest> gres, boolean wholeNode, int maxShare,
                      String partition, Owner owner) {
        this(cpus, memoryMb, 0, gres, wholeNode, maxShare, partition, owner);
    }

    /** The same demand at sharing level {@code level} (units held by at most that many jobs). */
    public NodeDemand atLevel(int level) {
        return level == holdersAtMost ? this
                : new NodeDemand(cpus, memoryMb, memPerCpuMb, gres, wholeNode, maxShare, partition, owner, level);
    }

    /** CPUs the job gets on {@code node}: all of them for a whole node, else its CPUs rounded up to whole units. */
    public long cpusTaken(CpuLayout node, ResourceUnit unit) {
        if (wholeNode) {
            return node.cpus();
        }
        return unit == ResourceUnit.CPU ? cpus : Math.max(cpus, unit.cpusOf(node, unit.unitsFor(node, cpus)));
    }

    /**
     * MiB the job is charged on {@code node}: per node as asked, or per CPU times the CPUs it gets there (whole cores
     * and whole nodes included), as Slurm's cons_tres charges {@code --mem-per-cpu} on the CPUs allocated
     * (src/plugins/select/cons_tres/job_test.c, "load memory allocated array").
     */
    public long memoryTaken(CpuLayout node, ResourceUnit unit) {
        return memPerCpuMb > 0 ? memPerCpuMb * cpusTaken(node, unit) : memoryMb;
    }
}
