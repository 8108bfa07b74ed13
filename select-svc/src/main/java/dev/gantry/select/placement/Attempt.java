package dev.gantry.select.placement;

import dev.gantry.common.job.PendingReason;
import java.util.List;

/**
 * How trying to start one job now went: started ({@code start} set), or not, with the reason the planner reports and
 * the partitions' shapes that lacked resources (where a reservation may be searched).
 */
record Attempt(Placement.Start start, PendingReason reason, List<JobShape> lacking) {

    static Attempt started(Placement.Start start) {
        return new Attempt(start, null, List.of());
    }

    boolean lackedResources() {
        return start == null && reason == PendingReason.RESOURCES;
    }
}
