package dev.gantry.select.placement;

import java.util.HashMap;
import java.util.Map;

/**
 * Small ids for partition names, as a {@link Ledger}'s per-unit arrays record whose units are (1, 2, … in order of
 * first use; 0 = none). Remembers the last name asked, since a scan asks for one partition node after node.
 *
 * <p>Not thread-safe.
 */
final class PartitionIds {

    private final Map<String, Short> ids;
    private Last last;

    private record Last(String name, short id) {}

    PartitionIds() {
        this(new HashMap<>());
    }

    private PartitionIds(Map<String, Short> ids) {
        this.ids = ids;
    }

    /** An independent copy with the same ids. */
    PartitionIds copy() {
        return new PartitionIds(new HashMap<>(ids));
    }

    short of(String partition) {
        Last known = last;
        if (known == null || known.name() != partition) {
            known = new Last(partition, ids.computeIfAbsent(partition, p -> (short) (ids.size() + 1)));
            last = known;
        }
        return known.id();
    }
}
