package dev.gantry.select.placement;

import dev.gantry.placement.NodeDemand;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.profile.AvailabilityProfile;
import dev.gantry.select.profile.StartIndex;
import dev.gantry.select.profile.StartOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The earliest start of one job in one partition on the plan's profile (Slurm's StartTime and SchedNodeList): the
 * count-th smallest per-node earliest start (required nodes: the latest of theirs), not rounded (as Slurm's will-run
 * test, the end of a running job's time limit is a start to the second; held reservations end on the resolution), where
 * count nodes fit the job's whole time limit at once; if fewer fit there, the next later candidate time, a few times.
 * Nodes come from the partition's {@link StartIndex} in order of their earliest start, so a search looks only at the
 * nodes that could start first (the first few searches of a call scan every member instead: see
 * {@link PlanRun#indexed}). Among nodes that fit, those that can start soonest are taken; ties go in an order the
 * index fixes (the same inputs give the same nodes).
 * A node that holds another user's job where either job is user-exclusive is a candidate only from that job's expected
 * end ({@link PlanRun#ownersFreeFrom}).
 * Contiguity, topology and Weight are not considered for reservations; nothing is held (see {@link PlanRun#hold}).
 */
final class ReservationSearch {
    private ReservationSearch() {}

    /** How many candidate start times a search tries before giving up on a job. */
    private static final int ATTEMPTS = 8;

    static Optional<Found> find(PlanRun run, JobShape shape) {
        AvailabilityProfile profile = run.profile();
        int count = shape.minNodes();
        NodeDemand demand = shape.demand(count);
        long duration = PlanRun.duration(shape);
        if (run.reserveFailures().failed(shape, count, demand, duration)) {
            return Optional.empty();
        }
        long now = run.now();
        long windowEnd = run.options().windowSeconds() > 0 ? now + run.options().windowSeconds() : AvailabilityProfile.NEVER;
        long memory = run.profileMemory(demand);
        int gres = PlanRun.gresCount(demand);
        Constraint constraint = shape.request().options().constraint();
        Set<String> exclude = shape.request().options().exclude();
        int[] required = new int[shape.required().size()];
        long requiredStart = now;
        for (int i = 0; i < required.length; i++) {
            required[i] = run.view().indexOf(shape.required().get(i));
            if (required[i] < 0 || !eligible(run, required[i], demand, constraint, exclude)) {
                return Optional.empty();
            }
            long free = run.ownersFreeFrom(required[i], demand.owner());
            long e = free == AvailabilityProfile.NEVER ? free
                    : profile.earliest(required[i], free, duration, run.profileCpus(required[i], demand), memory, gres, windowEnd);
            if (e == AvailabilityProfile.NEVER) {
                return failed(run, shape, count, demand, duration);
            }
            requiredStart = Math.max(requiredStart, e);
        }
        int need = count - required.length;
        boolean plain = required.length == 0 && exclude.isEmpty() && constraint.isAny() && demand.gres().isEmpty();
        NodeHardware hardware = run.hardware();
        StartIndex.NodeStart exact = (node, from, cutoff) -> {
            if (plain ? !hardware.fits(node, demand.cpus(), demand.memoryMb())
                    : !eligible(run, node, demand, constraint, exclude) || contains(required, node)) {
                return AvailabilityProfile.NEVER;
            }
            long free = run.ownersFreeFrom(node, demand.owner());
            if (free == AvailabilityProfile.NEVER || free > cutoff) {
                return AvailabilityProfile.NEVER;
            }
            // The earliest fit, moved past the held reservations of other users it would overlap (each step passes at
            // least one of them, so this ends).
            long t = Math.max(from, free);
            while (true) {
                long e = profile.earliest(node, t, duration, run.profileCpus(node, demand), memory, gres, cutoff);
                long past = e == AvailabilityProfile.NEVER ? Long.MIN_VALUE
                        : run.heldOwners().latestConflictEnd(node, demand.owner(), e, run.end(e, shape));
                if (past == Long.MIN_VALUE) {
                    return e;
                }
                if (past == AvailabilityProfile.NEVER || past > cutoff) {
                    return AvailabilityProfile.NEVER;
                }
                t = past;
            }
        };
        StartOrder search = run.indexed(shape.partition())
                ? run.startIndex(shape.partition()).search(demand.cpus(), duration, windowEnd, exact)
                : StartOrder.scan(run.members(shape.partition(), Set.of()), now, windowEnd, exact);
        Popped popped = new Popped(search, need);
        while (popped.size < need) {
            if (!popped.pop()) {
                return failed(run, shape, count, demand, duration);
            }
        }
        long start = Math.max(requiredStart, need == 0 ? now : popped.times[need - 1]);
        if (start > windowEnd) {
            return failed(run, shape, count, demand, duration); // the count-th earliest node is already too late
        }
        for (int attempt = 0; attempt < ATTEMPTS && start <= windowEnd; attempt++) {
            Optional<Found> made = at(run, shape, start, required, popped, demand);
            if (made.isPresent()) {
                return made;
            }
            if (!popped.pop()) {
                return Optional.empty();
            }
            start = Math.max(start + 1, popped.times[popped.size - 1]);
        }
        return Optional.empty();
    }

    /** The nodes a search gave so far, in ascending order of their earliest start. */
    private static final class Popped {
        private final StartOrder search;
        private int[] nodes;
        private long[] times;
        private int size;

        Popped(StartOrder search, int need) {
            this.search = search;
            nodes = new int[Math.max(8, need * 2)];
            times = new long[nodes.length];
        }

        /** Takes the search's next node; false when it has none. */
        boolean pop() {
            int node = search.next();
            if (node < 0) {
                return false;
            }
            if (size == nodes.length) {
                nodes = Arrays.copyOf(nodes, size * 2);
                times = Arrays.copyOf(times, size * 2);
            }
            nodes[size] = node;
            times[size++] = search.time();
            return true;
        }
    }

    /**
     * The reservation at {@code start} if the required nodes and enough others fit [start, end) there: the others are
     * the first that fit among the nodes that can start by then, soonest first (then node order).
     */
    private static Optional<Found> at(PlanRun run, JobShape shape, long start, int[] required, Popped popped,
                                      NodeDemand demand) {
        AvailabilityProfile profile = run.profile();
        long end = run.end(start, shape);
        long memory = run.profileMemory(demand);
        int gres = PlanRun.gresCount(demand);
        for (int r : required) {
            if (run.ownersFreeFrom(r, demand.owner()) > start || run.heldOwners().conflicts(r, demand.owner(), start, end)
                    || !profile.fits(r, start, end, run.profileCpus(r, demand), memory, gres)) {
                return Optional.empty();
            }
        }
        int need = shape.minNodes() - required.length;
        int[] chosen = new int[required.length + need];
        System.arraycopy(required, 0, chosen, 0, required.length);
        int n = 0;
        for (int i = 0; n < need; i++) {
            if (i == popped.size && (popped.search.peek() > start || !popped.pop())) {
                return Optional.empty();
            }
            int node = popped.nodes[i];
            if (popped.times[i] <= start && profile.fits(node, start, end, run.profileCpus(node, demand), memory, gres)
                    && !run.heldOwners().conflicts(node, demand.owner(), start, end)) {
                chosen[required.length + n++] = node;
            }
        }
        List<String> names = new ArrayList<>(chosen.length);
        for (int node : chosen) {
            names.add(run.view().node(node).name());
        }
        Placement.Reservation reservation = new Placement.Reservation(Instant.ofEpochSecond(start),
                shape.partition().name(), names);
        return Optional.of(new Found(reservation, shape, chosen, start, end));
    }

    private static Optional<Found> failed(PlanRun run, JobShape shape, int count, NodeDemand demand, long duration) {
        run.reserveFailures().fail(shape, count, demand, duration);
        return Optional.empty();
    }

    private static boolean eligible(PlanRun run, int node, NodeDemand demand, Constraint constraint, Set<String> exclude) {
        ClusterNode hw = run.view().node(node);
        return hw.usable() && run.ledger().couldEverHold(node, demand) && constraint.matches(hw.features())
                && (exclude.isEmpty() || !exclude.contains(hw.name()));
    }

    private static boolean contains(int[] nodes, int node) {
        for (int n : nodes) {
            if (n == node) {
                return true;
            }
        }
        return false;
    }
}
