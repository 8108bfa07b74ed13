package dev.gantry.gang.model;

import java.util.List;

/** An immutable copy of a {@link GangReplica}: every known partition, by name, with its jobs. */
public record GangView(String epoch, long revision, List<PartitionJobs> partitions) {

    /** Before the first snapshot: no epoch, revision 0, no partitions. */
    public static final GangView EMPTY = new GangView("", 0, List.of());

    public GangView {
        partitions = List.copyOf(partitions);
    }
}
