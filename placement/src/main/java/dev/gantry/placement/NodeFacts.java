package dev.gantry.placement;

import java.util.List;

/**
 * What {@link NodeFit} needs to know of nodes (by index) and what their jobs hold: select-svc's ledger answers it for
 * every node of a plan, {@link NodeUse} for the one node a proposal is checked on. Read only.
 */
public interface NodeFacts {

    Consumables consumables();

    CpuLayout layout(int node);

    long realMemoryMb(int node);

    List<GresPool> gresPools(int node);

    /** New jobs may be placed there (up, not draining, responding). */
    boolean usable(int node);

    /** A job holds it whole (--exclusive, OverSubscribe=EXCLUSIVE): nothing else may be placed there. */
    boolean heldWhole(int node);

    /** Whether a job of another user is there and either it or {@code owner} is user-exclusive. */
    boolean excludes(int node, Owner owner);

    /** Jobs holding part of it. */
    int jobsOn(int node);

    /** Units no job holds. */
    int freeUnits(int node);

    /** Units {@code demand} may take at its sharing level: free ones plus its partition's shareable ones. */
    int availableUnits(int node, NodeDemand demand);

    long freeMemoryMb(int node);

    /** How many of GRES pool {@code pool} are in use. */
    int gresUsed(int node, int pool);
}
