package dev.gantry.placement;

import java.util.List;

/**
 * Whether a node can take one job's demand now — the one fit rule select-svc proposes with and scheduler-svc validates
 * with, as Slurm's cons_tres decides it per node (src/plugins/select/cons_tres/job_test.c, {@code _can_job_run_on_node}):
 * the node is usable; no job holds it whole; no other user's job is there when either is user-exclusive; its hardware
 * could ever hold the demand; a whole-node job finds it empty, any other job finds enough units free or shareable at its
 * sharing level; the memory it is charged ({@link NodeDemand#memoryTaken}) is free when memory is tracked; every GRES it
 * asks for is free. Checked in that order; the first that fails is the {@link Misfit}. Pure, allocation-free.
 */
public final class NodeFit {
    private NodeFit() {}

    /** Why a node cannot take a demand, in the order checked. */
    public enum Misfit { UNUSABLE, HELD_WHOLE, OTHER_USER, TOO_SMALL, NOT_IDLE, CPUS, MEMORY, GRES }

    /** Null when {@code node} can take {@code demand} now, else the first reason it cannot. */
    public static Misfit misfit(NodeFacts facts, int node, NodeDemand demand) {
        if (!facts.usable(node)) {
            return Misfit.UNUSABLE;
        }
        if (facts.heldWhole(node)) {
            return Misfit.HELD_WHOLE;
        }
        if (facts.excludes(node, demand.owner())) {
            return Misfit.OTHER_USER;
        }
        if (!couldEverHold(facts, node, demand)) {
            return Misfit.TOO_SMALL;
        }
        CpuLayout layout = facts.layout(node);
        ResourceUnit unit = facts.consumables().unit();
        if (demand.wholeNode()) {
            if (facts.jobsOn(node) != 0) {
                return Misfit.NOT_IDLE;
            }
        } else {
            int needed = unit.unitsFor(layout, demand.cpus());
            if (facts.freeUnits(node) < needed && facts.availableUnits(node, demand) < needed) {
                return Misfit.CPUS;
            }
        }
        if (facts.consumables().memoryTracked() && demand.memoryMb() > 0
                && !holdsMemory(facts.freeMemoryMb(node), demand, layout, unit)) {
            return Misfit.MEMORY;
        }
        List<GresPool> pools = facts.gresPools(node);
        for (GresRequest g : demand.gres()) {
            if (gresFree(facts, node, pools, g) < g.count()) {
                return Misfit.GRES;
            }
        }
        return null;
    }

    /**
     * Whether the node's hardware could ever hold the demand (ignores what is in use): its CPUs, the memory it would be
     * charged there ({@link NodeDemand#memoryTaken}, whether or not memory is tracked) and its GRES.
     */
    public static boolean couldEverHold(NodeFacts facts, int node, NodeDemand demand) {
        CpuLayout layout = facts.layout(node);
        if (layout.cpus() < demand.cpus()
                || !holdsMemory(facts.realMemoryMb(node), demand, layout, facts.consumables().unit())) {
            return false;
        }
        for (GresRequest g : demand.gres()) {
            if (Gres.total(facts.gresPools(node), g.name(), g.type()) < g.count()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code mb} MiB hold what {@code demand} is charged on the node ({@link NodeDemand#memoryTaken}), which lies
     * between its memory for the CPUs asked and, per CPU, for all the node's CPUs: the rounding to whole units is worked
     * out only when the answer depends on it (it is on every node the selection scans). Precondition: the node has the
     * demand's CPUs.
     */
    private static boolean holdsMemory(long mb, NodeDemand demand, CpuLayout layout, ResourceUnit unit) {
        if (mb < demand.memoryMb()) {
            return false;
        }
        if (demand.memPerCpuMb() == 0 || mb >= demand.memPerCpuMb() * layout.cpus()) {
            return true;
        }
        return mb >= demand.memoryTaken(layout, unit);
    }

    /** How many GRES the request could take now: the free count of every pool that serves it. */
    public static int gresFree(NodeFacts facts, int node, List<GresPool> pools, GresRequest g) {
        int free = 0;
        for (int p = 0; p < pools.size(); p++) {
            if (pools.get(p).serves(g.name(), g.type())) {
                free += pools.get(p).count() - facts.gresUsed(node, p);
            }
        }
        return free;
    }
}
