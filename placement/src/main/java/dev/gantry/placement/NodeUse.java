package dev.gantry.placement;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One node and what the jobs on it hold, counted unit by unit exactly as select-svc's ledger counts a node (same
 * {@link UnitHolders} arrays, same sharing by partition): what scheduler-svc checks a proposed placement against.
 * Answers {@link NodeFacts} for node index 0. Built per check; not thread-safe.
 */
public final class NodeUse implements NodeFacts {

    private final String name;
    private final CpuLayout layout;
    private final long realMemoryMb;
    private final List<GresPool> pools;
    private final boolean usable;
    private final Consumables consumables;
    private final byte[] holders;
    private final short[] partitionOf;
    private final int[] gresUsed;
    private final Map<String, Short> partitionIds = new HashMap<>();
    private final List<Owner> owners = new ArrayList<>();
    private int freeUnits;
    private long usedMemory;
    private int jobs;
    private boolean whole;

    public NodeUse(String name, CpuLayout layout, long realMemoryMb, List<GresPool> pools, boolean usable,
                   Consumables consumables) {
        this.name = name;
        this.layout = layout;
        this.realMemoryMb = realMemoryMb;
        this.pools = List.copyOf(pools);
        this.usable = usable;
        this.consumables = consumables;
        int units = consumables.unit().unitsOf(layout);
        this.holders = new byte[units];
        this.partitionOf = new short[units];
        this.freeUnits = units;
        this.gresUsed = new int[pools.size()];
    }

    public String name() {
        return name;
    }

    /** Counts what one job holds here (see {@link HeldShare}). */
    public void hold(HeldShare held) {
        usedMemory += held.memoryMb();
        held.gres().forEach((pool, count) -> {
            if (pool >= 0 && pool < gresUsed.length) {
                gresUsed[pool] += count;
            }
        });
        if (held.cpusFreed()) {
            return;
        }
        short pid = partitionId(held.partition());
        BitSet units = held.units().isEmpty()
                ? UnitHolders.assumed(holders, partitionOf, pid, consumables.unit().unitsFor(layout, held.cpus()))
                : held.units();
        units.clear(holders.length, Integer.MAX_VALUE);
        freeUnits += UnitHolders.charge(holders, partitionOf, units, pid, +1);
        jobs++;
        owners.add(held.owner());
        whole |= held.wholeNode() && consumables.unit() != ResourceUnit.NODE;
    }

    /** Whether unit {@code u} may be taken by {@code demand}: free, or its partition's and held fewer than allowed. */
    public boolean unitShareable(int u, NodeDemand demand) {
        return holders[u] == 0 || holders[u] <= demand.holdersAtMost() && partitionOf[u] == partitionId(demand.partition());
    }

    public int unitCount() {
        return holders.length;
    }

    private short partitionId(String partition) {
        return partitionIds.computeIfAbsent(partition, p -> (short) (partitionIds.size() + 1));
    }

    @Override
    public Consumables consumables() {
        return consumables;
    }

    @Override
    public CpuLayout layout(int node) {
        return layout;
    }

    @Override
    public long realMemoryMb(int node) {
        return realMemoryMb;
    }

    @Override
    public List<GresPool> gresPools(int node) {
        return pools;
    }

    @Override
    public boolean usable(int node) {
        return usable;
    }

    @Override
    public boolean heldWhole(int node) {
        return whole;
    }

    @Override
    public boolean excludes(int node, Owner owner) {
        for (Owner o : owners) {
            if (o.conflictsWith(owner)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int jobsOn(int node) {
        return jobs;
    }

    @Override
    public int freeUnits(int node) {
        return freeUnits;
    }

    @Override
    public int availableUnits(int node, NodeDemand demand) {
        return UnitHolders.shareable(holders, partitionOf, partitionId(demand.partition()), demand.holdersAtMost() + 1);
    }

    @Override
    public long freeMemoryMb(int node) {
        return Math.max(0, realMemoryMb - usedMemory);
    }

    @Override
    public int gresUsed(int node, int pool) {
        return gresUsed[pool];
    }
}
