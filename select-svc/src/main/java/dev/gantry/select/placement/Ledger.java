package dev.gantry.select.placement;

import dev.gantry.placement.Consumables;
import dev.gantry.placement.CpuLayout;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.GresUse;
import dev.gantry.placement.NodeDemand;
import dev.gantry.placement.NodeFacts;
import dev.gantry.placement.NodeFit;
import dev.gantry.placement.Owner;
import dev.gantry.placement.ResourceUnit;
import dev.gantry.placement.UnitHolders;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Who holds what, unit by unit, during one Plan: per node, how many jobs hold each unit (core under CR_Core, CPU
 * under CR_CPU, the node under linear) and of which partition, memory and GRES per pool in use, and whose jobs they are
 * ({@link NodeOwners}: a node holding another user's job is not used when either job is user-exclusive). Built from a
 * {@link ReplicaView}'s allocations; placements and what-if releases change this copy only, never the view.
 *
 * <p>Invariant (checked by the property tests): no unit is held by more jobs than its partition's OverSubscribe allows,
 * memory in use never exceeds RealMemory when tracked, and no GRES pool is over-allocated — for everything placed
 * through {@link #take}. Allocations from the replica are counted as they are, even when over a limit.
 *
 * <p>Which units and GRES a take uses is chosen by {@link UnitHolders} and {@link GresUse} over this ledger's per-node
 * arrays; the jobs held are kept in {@link HeldJobs}.
 *
 * <p>Not thread-safe; one per Plan call (or per what-if, via {@link #copy}).
 */
public final class Ledger implements NodeFacts {

    private final ReplicaView view;
    private final Consumables consumables;
    private final ResourceUnit unit;
    private final boolean memoryTracked;
    private final byte[][] holders;
    private final short[][] owner;
    private final int[] freeUnits;
    private final long[] usedMemory;
    private final int[][] gresUsed;
    private final int[] jobs;
    private final boolean[] exclusive;
    private final NodeOwners[] owners; // null = no job here (immutable values: copies share them)
    private boolean userExclusive;     // some user-exclusive job has held a node (not reset on release)
    private final PartitionIds partitionIds;
    private final HeldJobs held;
    private SharedUnitCounts shared;   // made at first use above sharing level 0; null in a base (read by many threads)
    private boolean memo = true;
    // Copy-on-write: per-node arrays (holders, owner, gresUsed) are shared with the ledger this was copied from until
    // written; a set bit means this ledger owns the node's arrays.
    private final BitSet owned;

    public Ledger(ReplicaView view) {
        this.view = view;
        this.consumables = view.settings().consumables();
        this.unit = consumables.unit();
        this.memoryTracked = consumables.memoryTracked();
        int n = view.nodeCount();
        holders = new byte[n][];
        owner = new short[n][];
        freeUnits = new int[n];
        usedMemory = new long[n];
        gresUsed = new int[n][];
        jobs = new int[n];
        exclusive = new boolean[n];
        owners = new NodeOwners[n];
        partitionIds = new PartitionIds();
        held = new HeldJobs();
        owned = new BitSet(n);
        owned.set(0, n);
        for (int i = 0; i < n; i++) {
            ClusterNode node = view.node(i);
            int units = unit.unitsOf(node);
            holders[i] = new byte[units];
            owner[i] = new short[units];
            freeUnits[i] = units;
            gresUsed[i] = new int[node.gres().pools().size()];
        }
        for (JobAllocation allocation : view.allocations()) {
            Owner whose = allocation.owner().orExclusive(
                    view.partition(allocation.partition()).map(ClusterPartition::exclusiveUser).orElse(false));
            long end = allocation.endTime() == null ? HeldJob.NEVER : allocation.endTime().getEpochSecond();
            boolean whole = allocation.exclusive()
                    || view.partition(allocation.partition()).map(p -> p.oversubscribe().wholeNodes()).orElse(false);
            List<NodeAllotment> resolved = new ArrayList<>(allocation.nodes().size());
            for (NodeAllotment share : allocation.nodes()) {
                int at = view.indexOf(share.node());
                if (at < 0) {
                    continue;
                }
                short pid = partitionIds.of(allocation.partition());
                BitSet units = share.units().isEmpty()
                        ? UnitHolders.assumed(holders[at], owner[at], pid, unit.unitsFor(view.node(at), share.cpus()))
                        : share.units();
                units.clear(holders[at].length, Integer.MAX_VALUE);
                NodeAllotment r = new NodeAllotment(share.node(), share.cpus(), share.memoryMb(), units, share.gres());
                charge(at, r, pid, +1);
                own(at, whose, end, +1);
                resolved.add(r);
                if (whole && unit != ResourceUnit.NODE) {
                    exclusive[at] = true;
                }
            }
            held.put(allocation.jobId(), new HeldJob(allocation.partition(), resolved, whole, whose, end, false,
                    allocation.suspended()));
        }
    }

    private Ledger(Ledger o) {
        view = o.view;
        consumables = o.consumables;
        unit = o.unit;
        memoryTracked = o.memoryTracked;
        holders = o.holders.clone();
        owner = o.owner.clone();
        gresUsed = o.gresUsed.clone();
        owned = new BitSet(holders.length);
        if (!o.owned.isEmpty()) {
            o.owned.clear(); // the arrays are shared now: both copy before writing
        }
        freeUnits = o.freeUnits.clone();
        usedMemory = o.usedMemory.clone();
        jobs = o.jobs.clone();
        exclusive = o.exclusive.clone();
        owners = o.owners.clone();
        userExclusive = o.userExclusive;
        partitionIds = o.partitionIds.copy();
        held = o.held.fork();
    }

    /**
     * An independent copy for a what-if: O(nodes), per-node arrays are copied when first written. Copying a ledger no
     * one writes (a {@link #base}) is safe from several threads at once.
     */
    public Ledger copy() {
        return new Ledger(this);
    }

    /**
     * The view's ledger, built once per view and shared: callers must only {@link #copy} it, never change it.
     */
    public static Ledger base(ReplicaView view) {
        return view.derived(Ledger.class, v -> {
            Ledger built = new Ledger(v);
            built.owned.clear();
            built.held.share();
            built.memo = false;
            return built;
        });
    }

    public ReplicaView view() {
        return view;
    }

    public ResourceUnit unit() {
        return unit;
    }

    /** CPUs no job holds. */
    public long freeCpus(int node) {
        return unit.cpusOf(view.node(node), freeUnits[node]);
    }

    @Override
    public long freeMemoryMb(int node) {
        return Math.max(0, view.node(node).realMemoryMb() - usedMemory[node]);
    }

    public boolean memoryTracked() {
        return memoryTracked;
    }

    /** Jobs holding part of the node. */
    @Override
    public int jobsOn(int node) {
        return jobs[node];
    }

    /** How many jobs hold unit {@code u} of {@code node}. */
    public int holdersOf(int node, int u) {
        return holders[node][u];
    }

    public int unitCount(int node) {
        return holders[node].length;
    }

    @Override
    public int gresUsed(int node, int pool) {
        return gresUsed[node][pool];
    }

    /** Whether the node's hardware could ever hold the demand (ignores what is in use). */
    public boolean couldEverHold(int node, NodeDemand demand) {
        return NodeFit.couldEverHold(this, node, demand);
    }

    /** Whether the node can take the demand now, by the placement core's {@link NodeFit} rule. */
    public boolean admits(int node, NodeDemand demand) {
        return NodeFit.misfit(this, node, demand) == null;
    }

    @Override
    public Consumables consumables() {
        return consumables;
    }

    @Override
    public CpuLayout layout(int node) {
        return view.node(node);
    }

    @Override
    public long realMemoryMb(int node) {
        return view.node(node).realMemoryMb();
    }

    @Override
    public List<GresPool> gresPools(int node) {
        return view.node(node).gres().pools();
    }

    @Override
    public boolean usable(int node) {
        return view.node(node).usable();
    }

    @Override
    public boolean heldWhole(int node) {
        return exclusive[node];
    }

    @Override
    public int freeUnits(int node) {
        return freeUnits[node];
    }

    /**
     * CPUs of the units {@code demand} may take on the node at its sharing level ({@link NodeDemand#holdersAtMost}): the
     * free ones, plus, above level 0, those its partition holds at most that many times. Level 0 is {@link #freeCpus}.
     */
    public long availableCpus(int node, NodeDemand demand) {
        return unit.cpusOf(view.node(node), availableUnits(node, demand));
    }

    @Override
    public int availableUnits(int node, NodeDemand demand) {
        int level = demand.holdersAtMost();
        if (level == 0) {
            return freeUnits[node];
        }
        short pid = partitionIds.of(demand.partition());
        if (!memo) {
            return UnitHolders.shareable(holders[node], owner[node], pid, level + 1);
        }
        if (shared == null) {
            shared = new SharedUnitCounts(holders.length);
        }
        return shared.shareable(node, holders[node], owner[node], pid, level);
    }

    /** Whether a job of another user is on the node and either it or {@code owner} is user-exclusive. O(1). */
    @Override
    public boolean excludes(int node, Owner owner) {
        NodeOwners o = owners[node];
        return o != null && o.excludes(owner);
    }

    /**
     * From when (epoch seconds) the jobs now on the node no longer keep {@code owner}'s job off it: the latest expected
     * end of those that conflict ({@code Long.MAX_VALUE} when one has none), {@code Long.MIN_VALUE} when none does; after
     * a {@link #release} possibly later than exact (see {@link NodeOwners}). O(users on the node).
     */
    public long ownersFreeFrom(int node, Owner owner) {
        NodeOwners o = owners[node];
        return o == null ? Long.MIN_VALUE : o.freeFrom(owner);
    }

    /** Whether a user-exclusive job holds (or, in this ledger's history, held) a node: false = owners never matter. */
    public boolean anyUserExclusive() {
        return userExclusive;
    }

    private void own(int node, Owner owner, long end, int sign) {
        userExclusive |= sign > 0 && owner.exclusiveUser();
        NodeOwners o = owners[node] == null ? NodeOwners.EMPTY : owners[node];
        NodeOwners changed = sign > 0 ? o.with(owner, end) : o.without(owner);
        owners[node] = changed == NodeOwners.EMPTY ? null : changed;
    }

    /**
     * Gives {@code jobId} the demand on the node: free units first (lowest id), then, when sharing, the least-held units
     * of its partition, up to its sharing level; GRES from the first pools that serve it; no known end. Precondition:
     * {@link #admits} is true.
     */
    public NodeAllotment take(long jobId, int node, NodeDemand demand) {
        return take(jobId, node, demand, HeldJob.NEVER);
    }

    /** As {@link #take(long, int, NodeDemand)}, for a job expected to end at {@code end} (epoch seconds). */
    public NodeAllotment take(long jobId, int node, NodeDemand demand, long end) {
        ClusterNode n = view.node(node);
        short pid = partitionIds.of(demand.partition());
        BitSet units = new BitSet();
        if (demand.wholeNode()) {
            units.set(0, holders[node].length);
        } else {
            int needed = unit.unitsFor(n, demand.cpus());
            UnitHolders.pick(holders[node], owner[node], pid, needed, demand.holdersAtMost() + 1, units);
        }
        long cpus = demand.cpusTaken(n, unit);
        Map<Integer, Integer> gres = GresUse.take(n.gres().pools(), gresUsed[node], demand.gres());
        NodeAllotment share = new NodeAllotment(n.name(), Math.toIntExact(cpus), demand.memoryTaken(n, unit), units, gres);
        charge(node, share, pid, +1);
        own(node, demand.owner(), end, +1);
        if (demand.wholeNode()) {
            exclusive[node] = true;
        }
        HeldJob before = held.get(jobId);
        List<NodeAllotment> shares = before == null ? new ArrayList<>() : new ArrayList<>(before.shares());
        shares.add(share);
        held.put(jobId, new HeldJob(demand.partition(), shares, demand.wholeNode(), demand.owner(), end));
        return share;
    }

    /** Frees everything {@code jobId} holds (a simulated preemption); unknown jobs are ignored. */
    public void release(long jobId) {
        if (!held.containsKey(jobId)) {
            return;
        }
        HeldJob h = held.remove(jobId);
        if (h == null) {
            return;
        }
        short pid = partitionIds.of(h.partition());
        for (NodeAllotment share : h.shares()) {
            int at = view.indexOf(share.node());
            charge(at, share, pid, -1, !h.cpusFreed(), true);
            if (!h.cpusFreed()) {
                own(at, h.owner(), h.end(), -1);
            }
            if (h.wholeNode()) {
                exclusive[at] = false;
            }
        }
    }

    /**
     * Frees only the units {@code jobId} holds, as a job suspended under a higher-tier preemptor gives up its CPUs
     * (https://slurm.schedmd.com/preempt.html, PreemptMode=SUSPEND,GANG): its memory and GRES stay in use, so whatever
     * takes the units must fit beside them. It no longer counts among the node's owners either: whether another user's
     * job may preempt it is the preemption rules' decision (scheduler-svc's VictimRules), made before this what-if.
     * Idempotent; a later {@link #release} frees the rest; unknown jobs are ignored.
     */
    public void releaseCpus(long jobId) {
        HeldJob h = held.get(jobId);
        if (h == null || h.cpusFreed()) {
            return;
        }
        short pid = partitionIds.of(h.partition());
        for (NodeAllotment share : h.shares()) {
            int at = view.indexOf(share.node());
            charge(at, share, pid, -1, true, false);
            own(at, h.owner(), h.end(), -1);
            if (h.wholeNode()) {
                exclusive[at] = false;
            }
        }
        held.put(jobId, new HeldJob(h.partition(), h.shares(), false, h.owner(), h.end(), true, h.suspended()));
    }

    /**
     * Records {@code shares} as held by {@code jobId} of {@code owner} (a start decided elsewhere, e.g. by a preemption
     * what-if), exactly as given, with no known end. Precondition: the shares name this view's nodes and their unit ids.
     */
    public void hold(long jobId, String partition, List<NodeAllotment> shares, boolean wholeNode, Owner owner) {
        short pid = partitionIds.of(partition);
        for (NodeAllotment share : shares) {
            int at = view.indexOf(share.node());
            if (at >= 0) {
                charge(at, share, pid, +1);
                own(at, owner, HeldJob.NEVER, +1);
                if (wholeNode) {
                    exclusive[at] = true;
                }
            }
        }
        held.put(jobId, new HeldJob(partition, List.copyOf(shares), wholeNode, owner, HeldJob.NEVER));
    }

    /** See {@link HeldJobs#running}. */
    List<Long> running(String partition, int nodes) {
        return held.running(partition, nodes);
    }

    /** The resolved shares a job holds here (unit ids assigned), or empty. */
    public List<NodeAllotment> sharesOf(long jobId) {
        HeldJob h = held.get(jobId);
        return h == null ? List.of() : h.shares();
    }

    private void charge(int node, NodeAllotment share, short pid, int sign) {
        charge(node, share, pid, sign, true, true);
    }

    /** @param units the share's units and the node's job count; @param rest its memory and GRES */
    private void charge(int node, NodeAllotment share, short pid, int sign, boolean units, boolean rest) {
        if (!owned.get(node)) {
            holders[node] = holders[node].clone();
            owner[node] = owner[node].clone();
            gresUsed[node] = gresUsed[node].clone();
            owned.set(node);
        }
        if (units) {
            if (shared != null) {
                shared.changed(node);
            }
            freeUnits[node] += UnitHolders.charge(holders[node], owner[node], share.units(), pid, sign);
            jobs[node] += sign;
        }
        if (rest) {
            usedMemory[node] += sign * share.memoryMb();
            for (Map.Entry<Integer, Integer> g : share.gres().entrySet()) {
                if (g.getKey() < gresUsed[node].length) {
                    gresUsed[node][g.getKey()] += sign * g.getValue();
                }
            }
        }
    }
}
