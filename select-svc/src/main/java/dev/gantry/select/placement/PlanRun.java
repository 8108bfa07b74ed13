package dev.gantry.select.placement;

import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.ClusterPartition;
import dev.gantry.select.model.GresPool;
import dev.gantry.select.model.JobAllocation;
import dev.gantry.select.model.NodeShare;
import dev.gantry.select.model.ReplicaView;
import dev.gantry.select.profile.AvailabilityProfile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The working state of one Plan call: the {@link Ledger} of what is held now, the {@link AvailabilityProfile} of what
 * is free later (only with {@link PlanOptions#reserve}), and each partition's member indexes, computed once.
 *
 * <p>Not thread-safe; one per Plan call.
 */
final class PlanRun {

    /** How many candidate start times a reservation search tries before giving up on a job. */
    private static final int RESERVATION_ATTEMPTS = 8;

    private final ReplicaView view;
    private final PlanOptions options;
    private final Ledger ledger;
    private final AvailabilityProfile profile;
    private final long now;
    private final Map<String, int[]> members = new HashMap<>();

    PlanRun(ReplicaView view, PlanOptions options) {
        this.view = view;
        this.options = options;
        this.ledger = Ledger.base(view).copy();
        this.now = options.now().getEpochSecond();
        this.profile = options.reserve() ? profile() : null;
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

    int[] members(ClusterPartition partition, Set<String> exclude) {
        int[] all = members.computeIfAbsent(partition.name(), p -> NodeSelector.memberIndexes(ledger, partition, Set.of()));
        if (exclude.isEmpty()) {
            return all;
        }
        return java.util.Arrays.stream(all).filter(i -> !exclude.contains(view.node(i).name())).toArray();
    }

    /** With reservations made, a start now must leave them intact for its whole time limit (sharing jobs excepted). */
    NodeGate gate(JobShape shape) {
        if (profile == null || !profile.hasReservations()) {
            return NodeGate.OPEN;
        }
        long end = end(now, shape);
        return (node, demand) -> demand.maxShare() > 1
                || profile.fits(node, now, end, profileCpus(node, demand), profileMemory(demand), gresCount(demand));
    }

    /** Charges a start to the ledger (and profile); returns the shares. */
    List<NodeShare> start(JobShape shape, int[] chosen) {
        long jobId = shape.request().jobId();
        List<NodeShare> shares = new ArrayList<>(chosen.length);
        long end = end(now, shape);
        for (int i = 0; i < chosen.length; i++) {
            NodeDemand demand = shape.demandOn(i, chosen.length);
            if (profile != null) {
                profile.reserve(chosen[i], now, end, profileCpus(chosen[i], demand), profileMemory(demand), gresCount(demand));
            }
            shares.add(ledger.take(jobId, chosen[i], demand));
        }
        return shares;
    }

    /**
     * The earliest start for the first of {@code shapes} (its partitions in order) that has one: the count-th smallest
     * per-node earliest time, checked for the count nodes at once, retried at later times a few times; the nodes then
     * go by Weight and node order. Contiguity and topology are not considered for reservations.
     */
    Optional<Placement.Reservation> reserve(List<JobShape> shapes) {
        for (JobShape shape : shapes) {
            Optional<Placement.Reservation> found = reserve(shape);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private Optional<Placement.Reservation> reserve(JobShape shape) {
        int count = shape.minNodes();
        NodeDemand demand = shape.demand(count);
        long duration = duration(shape);
        int[] candidates = members(shape.partition(), shape.request().options().exclude());
        long[] earliest = new long[candidates.length];
        long[] sortable = new long[candidates.length];
        int n = 0;
        Constraint constraint = shape.request().options().constraint();
        long memory = profileMemory(demand);
        int gresCount = gresCount(demand);
        // The count earliest times so far (a max-heap): a node that cannot start before the count-th of them is not
        // followed further (its scan stops at that cutoff), so busy nodes cost little once enough free ones are seen.
        Preference.Smallest best = new Preference.Smallest(count);
        for (int i = 0; i < candidates.length; i++) {
            int node = candidates[i];
            ClusterNode hw = view.node(node);
            earliest[i] = AvailabilityProfile.NEVER;
            if (hw.usable() && ledger.couldEverHold(node, demand) && constraint.matches(hw.features())) {
                long cutoff = best.full() ? best.largest() : AvailabilityProfile.NEVER;
                earliest[i] = profile.earliest(node, now, duration, profileCpus(node, demand), memory, gresCount, cutoff);
                if (earliest[i] != AvailabilityProfile.NEVER) {
                    sortable[n++] = earliest[i];
                    best.offer(earliest[i]);
                }
            }
        }
        if (n < count) {
            return Optional.empty();
        }
        long[] ordered = Preference.best(sortable, n, n <= 4 * count ? n : Math.min(n, count + RESERVATION_ATTEMPTS * 4));
        int next = count - 1;
        for (int attempt = 0; attempt < RESERVATION_ATTEMPTS && next < ordered.length; attempt++) {
            long start = ordered[next];
            for (String r : shape.required()) {
                int idx = view.indexOf(r);
                for (int i = 0; i < candidates.length; i++) {
                    if (candidates[i] == idx) {
                        start = Math.max(start, earliest[i]);
                    }
                }
            }
            if (start == AvailabilityProfile.NEVER
                    || (options.windowSeconds() > 0 && start - now > options.windowSeconds())) {
                return Optional.empty();
            }
            Optional<Placement.Reservation> made = reserveAt(shape, candidates, earliest, start, count, demand);
            if (made.isPresent()) {
                return made;
            }
            while (next < ordered.length && ordered[next] <= start) {
                next++;
            }
        }
        return Optional.empty();
    }

    private Optional<Placement.Reservation> reserveAt(JobShape shape, int[] candidates, long[] earliest, long start,
                                                      int count, NodeDemand demand) {
        long end = end(start, shape);
        long[] keys = new long[candidates.length];
        int n = 0;
        List<Integer> required = shape.required().stream().map(view::indexOf).toList();
        for (int i = 0; i < candidates.length; i++) {
            int node = candidates[i];
            if (earliest[i] <= start && !required.contains(node)
                    && profile.fits(node, start, end, profileCpus(node, demand), profileMemory(demand), gresCount(demand))) {
                keys[n++] = Preference.key(view.node(node).weight(), 0, node);
            }
        }
        if (n + required.size() < count) {
            return Optional.empty();
        }
        List<Integer> chosen = new ArrayList<>(required);
        for (long key : Preference.best(keys, n, count - required.size())) {
            chosen.add(Preference.index(key));
        }
        List<String> names = new ArrayList<>(chosen.size());
        for (int i = 0; i < chosen.size(); i++) {
            int node = chosen.get(i);
            NodeDemand d = shape.demandOn(i, chosen.size());
            profile.reserve(node, start, end, profileCpus(node, d), profileMemory(d), gresCount(d));
            names.add(view.node(node).name());
        }
        return Optional.of(new Placement.Reservation(Instant.ofEpochSecond(start), shape.partition().name(), names));
    }

    /** Built lazily per node from the ledger (what is free now) and the view's release index (what comes back when). */
    private AvailabilityProfile profile() {
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
                    for (NodeShare share : ledger.sharesOf(allocation.jobId())) {
                        if (share.node().equals(name)) {
                            int gresHeld = share.gres().values().stream().mapToInt(Integer::intValue).sum();
                            sink.at(allocation.endTime().getEpochSecond(),
                                    Math.toIntExact(ledger.unit().cpusOf(view.node(node), share.unitCount())),
                                    ledger.memoryTracked() ? share.memoryMb() : 0, gresHeld);
                        }
                    }
                }
            }
        });
    }

    private static final Object RELEASES = new Object();

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
            for (NodeShare share : allocations.get(a).nodes()) {
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

    private long profileCpus(int node, NodeDemand demand) {
        ClusterNode hw = view.node(node);
        return demand.wholeNode() ? hw.cpus() : ledger.unit().cpusOf(hw, ledger.unit().unitsFor(hw, demand.cpus()));
    }

    private long profileMemory(NodeDemand demand) {
        return ledger.memoryTracked() ? demand.memoryMb() : 0;
    }

    private static int gresCount(NodeDemand demand) {
        int count = 0;
        for (GresRequest g : demand.gres()) {
            count += g.count();
        }
        return count;
    }

    private static long duration(JobShape shape) {
        long limit = shape.request().options().timeLimitSeconds();
        return limit == 0 ? AvailabilityProfile.NEVER : limit;
    }

    private static long end(long start, JobShape shape) {
        long duration = duration(shape);
        return duration == AvailabilityProfile.NEVER || start > Long.MAX_VALUE - duration ? AvailabilityProfile.NEVER
                : start + duration;
    }
}
