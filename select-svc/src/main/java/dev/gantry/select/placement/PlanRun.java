package dev.gantry.select.placement;

import dev.gantry.placement.GresPool;
import dev.gantry.placement.GresRequest;
import dev.gantry.placement.NodeDemand;
import dev.gantry.placement.Owner;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeAllotment;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.profile.AvailabilityProfile;
import dev.gantry.select.profile.StartIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The working state of one Plan call: the {@link Ledger} of what is held now, the {@link AvailabilityProfile} of what
 * is free later (only with {@link PlanOptions#reserve}), each partition's member indexes, its {@link FreeIndex} (start
 * now) and {@link dev.gantry.select.profile.StartIndex} (earliest start), and the {@link ShapeMemo}s of searches known
 * to fail, all made once per call.
 *
 * <p>Not thread-safe; one per Plan call.
 */
final class PlanRun {

    private final ReplicaView view;
    private final PlanOptions options;
    private final Ledger ledger;
    private final AvailabilityProfile profile;
    private final long now;
    private final Map<String, int[]> members = new HashMap<>();
    private final Map<String, FreeIndex> free = new HashMap<>();
    private final Map<String, StartIndex> starts = new HashMap<>();
    private final ShapeMemo startFailures = new ShapeMemo(this::ownersMatter);
    private final ShapeMemo reserveFailures = new ShapeMemo(this::ownersMatter);
    private final NodeSelector selector = new NodeSelector();
    private final java.util.BitSet started = new java.util.BitSet();
    private final NodeHardware hardware;
    private final HeldOwners heldOwners;

    PlanRun(ReplicaView view, PlanOptions options) {
        this.view = view;
        this.options = options;
        this.ledger = Ledger.base(view).copy();
        this.now = options.now().getEpochSecond();
        this.profile = options.reserve() ? buildProfile() : null;
        this.hardware = view.derived(HARDWARE, NodeHardware::of);
        this.heldOwners = new HeldOwners(view.nodeCount());
    }

    ReplicaView view() {
        return view;
    }

    PlanOptions options() {
        return options;
    }

    Ledger ledger() {
        return ledger;
    }

    AvailabilityProfile profile() {
        return profile;
    }

    long now() {
        return now;
    }

    ShapeMemo reserveFailures() {
        return reserveFailures;
    }

    int[] members(ClusterPartition partition, Set<String> exclude) {
        int[] all = members.computeIfAbsent(partition.name(), p -> view.derived(List.of(MEMBERS, p),
                v -> NodeSelector.memberIndexes(Ledger.base(v), partition, Set.of())));
        if (exclude.isEmpty()) {
            return all;
        }
        return java.util.Arrays.stream(all).filter(i -> !exclude.contains(view.node(i).name())).toArray();
    }

    /** The partition's {@link StartIndex} on the profile, made at its first use. Precondition: reserving. */
    StartIndex startIndex(ClusterPartition partition) {
        return starts.computeIfAbsent(partition.name(), p -> profile.index(members(partition, Set.of())));
    }

    /**
     * Whether reservation searches in {@code partition} go through its {@link StartIndex}: from the
     * {@value #SCANS_BEFORE_INDEX}th search of the call on (before that, a scan of every member costs less than
     * building the index: a will-run, a short queue). Counts this search.
     */
    boolean indexed(ClusterPartition partition) {
        return starts.containsKey(partition.name()) || ++searches > SCANS_BEFORE_INDEX;
    }

    private static final int SCANS_BEFORE_INDEX = 16;
    private int searches;

    /**
     * With reservations made, a start now must leave them intact for its whole time limit (sharing jobs excepted), and
     * must not overlap another user's reservation on the node where either is user-exclusive (sharing jobs too).
     */
    NodeGate gate(JobShape shape) {
        if (profile == null || !profile.hasReservations()) {
            return NodeGate.OPEN;
        }
        long end = end(now, shape);
        return (node, demand) -> (demand.maxShare() > 1
                || profile.fits(node, now, end, profileCpus(node, demand), profileMemory(demand), gresCount(demand)))
                && !heldOwners.conflicts(node, demand.owner(), now, end);
    }

    /**
     * The nodes {@code shape}'s job would get now in its partition (see {@link NodeSelector}), or empty. A job of one
     * node count without required nodes or contiguity (and one node, or no topology) is chosen on free resources
     * (sharing level 0) through the partition's {@link FreeIndex}, which gives the same nodes without looking at every
     * member, and only if that fails at the higher sharing levels by the selector; a shape known to fail is not searched
     * again.
     */
    Optional<int[]> select(JobShape shape) {
        Set<String> exclude = shape.request().options().exclude();
        int count = shape.minNodes();
        boolean fixed = count == shape.request().maxNodes();
        NodeDemand demand = shape.demand(count);
        long duration = duration(shape);
        if (fixed && startFailures.failed(shape, count, demand, duration)) {
            return Optional.empty();
        }
        JobOptions o = shape.request().options();
        Optional<int[]> chosen;
        if (fixed && shape.required().isEmpty() && !o.contiguous() && (count == 1 || view.topology().isEmpty())) {
            chosen = Optional.empty();
            for (Constraint alternative : o.constraint().alternatives()) {
                chosen = fastSelect(shape, count, demand.atLevel(0), exclude, alternative);
                if (chosen.isEmpty() && shape.maxShare() > 1) {
                    chosen = selector.select(ledger, shape, gate(shape), members(shape.partition(), exclude), alternative, 1);
                }
                if (chosen.isPresent()) {
                    break;
                }
            }
        } else {
            chosen = selector.select(ledger, shape, gate(shape), members(shape.partition(), exclude));
        }
        if (chosen.isEmpty() && fixed) {
            startFailures.fail(shape, count, demand, duration);
        }
        return chosen;
    }

    /** The first {@code count} members in preference order that admit {@code demand} (at sharing level 0). */
    private Optional<int[]> fastSelect(JobShape shape, int count, NodeDemand demand, Set<String> exclude,
                                       Constraint alternative) {
        FreeIndex index = free.computeIfAbsent(shape.partition().name(), p -> {
            FreeIndex made = view.<FreeIndex>derived(List.of(FREE, p),
                    v -> new FreeIndex(Ledger.base(v), members(shape.partition(), Set.of()))).copyFor(ledger);
            for (int node = started.nextSetBit(0); node >= 0; node = started.nextSetBit(node + 1)) {
                made.changed(node); // starts charged before this index existed
            }
            return made;
        });
        NodeGate gate = gate(shape);
        long minFree = demand.wholeNode() ? 0 : demand.cpus();
        int[] chosen = index.first(count, minFree, node -> ledger.admits(node, demand)
                && alternative.matches(view.node(node).features())
                && (exclude.isEmpty() || !exclude.contains(view.node(node).name()))
                && gate.open(node, demand));
        return Optional.ofNullable(chosen);
    }

    /** Charges a start to the ledger (and profile); returns the shares. */
    List<NodeAllotment> start(JobShape shape, int[] chosen) {
        long jobId = shape.request().jobId();
        List<NodeAllotment> shares = new ArrayList<>(chosen.length);
        long end = end(now, shape);
        for (int i = 0; i < chosen.length; i++) {
            NodeDemand demand = shape.demandOn(i, chosen.length);
            if (profile != null) {
                profile.reserve(chosen[i], now, end, profileCpus(chosen[i], demand), profileMemory(demand), gresCount(demand));
            }
            shares.add(ledger.take(jobId, chosen[i], demand, end));
            started.set(chosen[i]);
            for (FreeIndex index : free.values()) {
                index.changed(chosen[i]);
            }
        }
        return shares;
    }

    /**
     * Charges a start decided before this run (by {@code request}, in the same call) to the ledger, as
     * {@link StartTrial#holding} does. Precondition: not reserving (the profile would not see it).
     */
    void hold(Placement.Start start, ResourceRequest request) {
        if (profile != null) {
            throw new IllegalStateException("a plan that reserves cannot take starts decided before it");
        }
        boolean exclusiveUser = view.partition(start.partition()).map(ClusterPartition::exclusiveUser).orElse(false);
        ledger.hold(start.jobId(), start.partition(), start.nodes(), request.options().exclusive(),
                request.owner().orExclusive(exclusiveUser));
        for (NodeAllotment share : start.nodes()) {
            int at = view.indexOf(share.node());
            if (at >= 0) {
                started.set(at);
                for (FreeIndex index : free.values()) {
                    index.changed(at);
                }
            }
        }
    }

    /**
     * The earliest start for the first of {@code shapes} (its partitions in order) that has one, not yet held (see
     * {@link ReservationSearch}). Precondition: reserving.
     */
    Optional<Found> earliest(List<JobShape> shapes) {
        for (JobShape shape : shapes) {
            Optional<Found> found = ReservationSearch.find(this, shape);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** Takes a found reservation's resources from the profile: later jobs plan around it, and starts must not delay it. */
    void hold(Found found) {
        for (int i = 0; i < found.nodes().length; i++) {
            NodeDemand d = found.shape().demandOn(i, found.nodes().length);
            int node = found.nodes()[i];
            profile.reserve(node, found.start(), found.end(), profileCpus(node, d), profileMemory(d), gresCount(d));
            heldOwners.hold(node, d.owner(), found.start(), found.end());
        }
    }

    /** Whether a user-exclusive job holds a node now or a reservation in this plan (then owners decide what is free). */
    private boolean ownersMatter() {
        return ledger.anyUserExclusive() || heldOwners.anyExclusive();
    }

    /** The plan's held reservations by owner (user exclusivity over time). */
    HeldOwners heldOwners() {
        return heldOwners;
    }

    /** Built lazily per node from the ledger (what is free now) and the view's release index (what comes back when). */
    private AvailabilityProfile buildProfile() {
        int[][] releases = view.derived(RELEASES, PlanRun::releaseIndex);
        return new AvailabilityProfile(now, view.nodeCount(), new AvailabilityProfile.Source() {
            public int freeCpus(int node) {
                return Math.toIntExact(ledger.freeCpus(node));
            }

            public long freeMemoryMb(int node) {
                return ledger.memoryTracked() ? ledger.freeMemoryMb(node) : Long.MAX_VALUE / 4;
            }

            public int freeGres(int node) {
                List<GresPool> pools = view.node(node).gres().pools();
                int free = 0;
                for (int p = 0; p < pools.size(); p++) {
                    free += pools.get(p).count() - ledger.gresUsed(node, p);
                }
                return free;
            }

            public void releases(int node, AvailabilityProfile.Release sink) {
                String name = view.node(node).name();
                for (int a : releases[node]) {
                    JobAllocation allocation = view.allocations().get(a);
                    for (NodeAllotment share : ledger.sharesOf(allocation.jobId())) {
                        if (share.node().equals(name)) {
                            int gresHeld = share.gres().values().stream().mapToInt(Integer::intValue).sum();
                            sink.at(allocation.endTime().getEpochSecond(), // exact: Slurm's will-run test
                                    Math.toIntExact(ledger.unit().cpusOf(view.node(node), share.unitCount())),
                                    ledger.memoryTracked() ? share.memoryMb() : 0, gresHeld);
                        }
                    }
                }
            }
        });
    }

    private static final Object RELEASES = new Object();
    private static final Object MEMBERS = new Object();
    private static final Object FREE = new Object();
    private static final Object HARDWARE = new Object();

    /** Per node, the indexes (in the view's allocation list) of allocations with an end time that hold part of it. */
    private static int[][] releaseIndex(ReplicaView view) {
        List<List<Integer>> perNode = new ArrayList<>(view.nodeCount());
        for (int i = 0; i < view.nodeCount(); i++) {
            perNode.add(new ArrayList<>(2));
        }
        List<JobAllocation> allocations = view.allocations();
        for (int a = 0; a < allocations.size(); a++) {
            if (allocations.get(a).endTime() == null) {
                continue;
            }
            for (NodeAllotment share : allocations.get(a).nodes()) {
                int at = view.indexOf(share.node());
                if (at >= 0 && !perNode.get(at).contains(a)) {
                    perNode.get(at).add(a);
                }
            }
        }
        int[][] index = new int[view.nodeCount()][];
        for (int i = 0; i < index.length; i++) {
            index[i] = perNode.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return index;
    }

    long profileCpus(int node, NodeDemand demand) {
        return hardware.taken(ledger.unit(), node, demand.cpus(), demand.wholeNode());
    }

    /**
     * From when (epoch seconds, their exact expected end) the jobs now on {@code node} no longer keep {@code owner}'s
     * job off it (user exclusivity, see {@link Ledger#ownersFreeFrom}); {@code now} when none does, NEVER when one of them
     * has no end.
     */
    long ownersFreeFrom(int node, Owner owner) {
        long from = ledger.ownersFreeFrom(node, owner);
        return Math.max(from, now);
    }

    /** The view's nodes as flat arrays. */
    NodeHardware hardware() {
        return hardware;
    }

    long profileMemory(NodeDemand demand) {
        return ledger.memoryTracked() ? demand.memoryMb() : 0;
    }

    static int gresCount(NodeDemand demand) {
        int count = 0;
        for (GresRequest g : demand.gres()) {
            count += g.count();
        }
        return count;
    }

    /** The job's time limit in seconds; {@link AvailabilityProfile#NEVER} when it has none. */
    static long duration(JobShape shape) {
        long limit = shape.request().options().timeLimitSeconds();
        return limit == 0 ? AvailabilityProfile.NEVER : limit;
    }

    /**
     * When a job of {@code shape} started (or planned) at {@code start} ends on the profile, rounded up to the
     * resolution; NEVER without a limit.
     */
    long end(long start, JobShape shape) {
        long duration = duration(shape);
        return duration == AvailabilityProfile.NEVER || start > Long.MAX_VALUE / 2 - duration ? AvailabilityProfile.NEVER
                : roundUp(start + duration);
    }

    /** {@code time} rounded up to a multiple of the resolution (bf_resolution); NEVER stays NEVER. */
    long roundUp(long time) {
        long r = options.resolutionSeconds();
        if (r <= 1 || time == AvailabilityProfile.NEVER) {
            return time;
        }
        return Math.floorDiv(time + r - 1, r) * r;
    }
}
