package dev.gantry.select.placement;

import dev.gantry.placement.Owner;
import java.util.Arrays;

/**
 * The users whose running or suspended jobs hold part of one node, summarised for user-exclusive placement
 * ({@link Owner}): which user holds it alone (if one does), which user's user-exclusive jobs hold it (if one user's do),
 * and, per user, the latest expected end of its jobs (and of its user-exclusive jobs).
 *
 * <p>Immutable: {@link #with} and {@link #without} return a new summary, so ledgers share them across copies. A change
 * costs O(users on the node); {@link #excludes} costs O(1) and {@link #freeFrom} O(users on the node), however many
 * jobs hold it. Ends only grow: after {@link #without}, a user's latest end stays what it was while it still has jobs
 * here (later than exact, never earlier — the plans that read ends only add jobs).
 */
final class NodeOwners {

    /** No job holds the node; {@code null} stands for this in the ledger. */
    static final NodeOwners EMPTY = new NodeOwners(new Entry[0]);

    /**
     * One user's jobs on the node.
     *
     * @param end          the latest expected end of its jobs (epoch seconds; Long.MAX_VALUE when one has none)
     * @param exclusiveEnd the same for its user-exclusive jobs (Long.MIN_VALUE when it has none)
     */
    private record Entry(String user, int jobs, int exclusiveJobs, long end, long exclusiveEnd) {}

    private final Entry[] entries;
    // Summary, made once per change:
    private final String soleUser;       // the one user holding the node, or null when several
    private final String soleExclusive;  // the one user with user-exclusive jobs here, or null (none or several)
    private final int exclusiveUsers;    // distinct users with user-exclusive jobs here

    private NodeOwners(Entry[] entries) {
        this.entries = entries;
        soleUser = entries.length == 1 ? entries[0].user() : null;
        String sole = null;
        int count = 0;
        for (Entry e : entries) {
            if (e.exclusiveJobs() > 0) {
                sole = count == 0 ? e.user() : null;
                count++;
            }
        }
        soleExclusive = sole;
        exclusiveUsers = count;
    }

    /** This node with one more job of {@code owner} expected to end at {@code end} (epoch seconds, or Long.MAX_VALUE). */
    NodeOwners with(Owner owner, long end) {
        int x = owner.exclusiveUser() ? 1 : 0;
        long xEnd = owner.exclusiveUser() ? end : Long.MIN_VALUE;
        int at = indexOf(owner.user());
        if (at >= 0) {
            Entry e = entries[at];
            Entry[] changed = entries.clone();
            changed[at] = new Entry(e.user(), e.jobs() + 1, e.exclusiveJobs() + x, Math.max(e.end(), end),
                    Math.max(e.exclusiveEnd(), xEnd));
            return new NodeOwners(changed);
        }
        Entry[] grown = Arrays.copyOf(entries, entries.length + 1);
        grown[entries.length] = new Entry(owner.user(), 1, x, end, xEnd);
        return new NodeOwners(grown);
    }

    /** This node with one job of {@code owner} gone; unchanged when it has none here. */
    NodeOwners without(Owner owner) {
        int at = indexOf(owner.user());
        if (at < 0) {
            return this;
        }
        Entry e = entries[at];
        if (e.jobs() > 1) {
            Entry[] changed = entries.clone();
            int x = Math.max(0, e.exclusiveJobs() - (owner.exclusiveUser() ? 1 : 0));
            changed[at] = new Entry(e.user(), e.jobs() - 1, x, e.end(), x == 0 ? Long.MIN_VALUE : e.exclusiveEnd());
            return new NodeOwners(changed);
        }
        if (entries.length == 1) {
            return EMPTY;
        }
        Entry[] shrunk = new Entry[entries.length - 1];
        System.arraycopy(entries, 0, shrunk, 0, at);
        System.arraycopy(entries, at + 1, shrunk, at, entries.length - at - 1);
        return new NodeOwners(shrunk);
    }

    /** Whether a job of {@code owner} may not use the node now: another user's job is here and one side is user-exclusive. */
    boolean excludes(Owner owner) {
        if (owner.exclusiveUser() && entries.length > 0 && (soleUser == null || !soleUser.equals(owner.user()))) {
            return true;
        }
        return exclusiveUsers > 1 || (exclusiveUsers == 1 && !soleExclusive.equals(owner.user()));
    }

    /**
     * From when (epoch seconds) no job here keeps {@code owner}'s job off the node: the latest end of the conflicting
     * jobs (Long.MAX_VALUE when one has no end), or Long.MIN_VALUE when none conflicts.
     */
    long freeFrom(Owner owner) {
        long from = Long.MIN_VALUE;
        for (Entry e : entries) {
            if (!e.user().equals(owner.user())) {
                from = Math.max(from, owner.exclusiveUser() ? e.end() : e.exclusiveEnd());
            }
        }
        return from;
    }

    private int indexOf(String user) {
        for (int i = 0; i < entries.length; i++) {
            if (entries[i].user().equals(user)) {
                return i;
            }
        }
        return -1;
    }
}
