package dev.gantry.select.placement;

import dev.gantry.placement.Owner;
import java.util.ArrayList;
import java.util.List;

/**
 * Whose reservations a plan holds on each node, and when, so that user exclusivity holds over time as well: a start or
 * a reservation may not overlap, on one node, a held reservation of another user when either is user-exclusive.
 *
 * <p>A job that is not user-exclusive looks only at the node's user-exclusive reservations (usually none), so the common
 * check is O(1); a user-exclusive job looks at all of the node's reservations. Not thread-safe; one per Plan call.
 */
final class HeldOwners {

    private record Window(Owner owner, long start, long end) {
        boolean conflicts(Owner other, long from, long until) {
            return from < end && start < until && owner.conflictsWith(other);
        }
    }

    private final int nodeCount;
    private List<Window>[] all;        // null until the first hold
    private List<Window>[] exclusive;  // the user-exclusive ones among them
    private boolean anyExclusive;

    HeldOwners(int nodeCount) {
        this.nodeCount = nodeCount;
    }

    /** Records that {@code owner}'s job holds {@code node} over [start, end) (epoch seconds). */
    @SuppressWarnings("unchecked")
    void hold(int node, Owner owner, long start, long end) {
        if (all == null) {
            all = new List[nodeCount];
            exclusive = new List[nodeCount];
        }
        Window w = new Window(owner, start, end);
        add(all, node, w);
        if (owner.exclusiveUser()) {
            add(exclusive, node, w);
            anyExclusive = true;
        }
    }

    /** Whether a user-exclusive job holds a reservation here. */
    boolean anyExclusive() {
        return anyExclusive;
    }

    /** Whether a job of {@code owner} on {@code node} over [start, end) would overlap a conflicting held reservation. */
    boolean conflicts(int node, Owner owner, long start, long end) {
        return latestConflictEnd(node, owner, start, end) != Long.MIN_VALUE;
    }

    /**
     * The latest end of the held reservations on {@code node} that a job of {@code owner} over [start, end) would
     * conflict with, or {@code Long.MIN_VALUE} when there is none.
     */
    long latestConflictEnd(int node, Owner owner, long start, long end) {
        if (all == null) {
            return Long.MIN_VALUE;
        }
        List<Window> windows = owner.exclusiveUser() ? all[node] : exclusive[node];
        long latest = Long.MIN_VALUE;
        if (windows != null) {
            for (Window w : windows) {
                if (w.conflicts(owner, start, end)) {
                    latest = Math.max(latest, w.end());
                }
            }
        }
        return latest;
    }

    private static void add(List<Window>[] lists, int node, Window w) {
        if (lists[node] == null) {
            lists[node] = new ArrayList<>(2);
        }
        lists[node].add(w);
    }
}
