package dev.gantry.select.placement;

import dev.gantry.select.model.NodeShare;
import java.util.List;

/** What a Plan decided for one job: start it now on these resources, or leave it pending for a reason. */
public sealed interface Placement permits Placement.Start, Placement.Pending {

    long jobId();

    /** Start now in {@code partition}; the first node runs the batch script. */
    record Start(long jobId, String partition, List<NodeShare> nodes) implements Placement {
        public Start {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("a started job needs at least one node");
            }
        }

        /** The node that runs the batch script. */
        public String batchHost() {
            return nodes.getFirst().node();
        }
    }

    /** Cannot start now. */
    record Pending(long jobId, PendingReason reason) implements Placement {}
}
