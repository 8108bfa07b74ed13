package dev.gantry.select.placement;

import dev.gantry.common.job.PendingReason;
import dev.gantry.select.model.NodeAllotment;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What a Plan decided for one job: start it now on these resources, or leave it pending for a reason. */
public sealed interface Placement permits Placement.Start, Placement.Pending {

    long jobId();

    /** Start now in {@code partition}; the first node runs the batch script. */
    record Start(long jobId, String partition, List<NodeAllotment> nodes) implements Placement {
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

    /**
     * Cannot start now.
     *
     * @param reservation when and where it is expected to start (StartTime, SchedNodeList), when planned
     */
    record Pending(long jobId, PendingReason reason, Optional<Reservation> reservation) implements Placement {
        public Pending(long jobId, PendingReason reason) {
            this(jobId, reason, Optional.empty());
        }
    }

    /** A planned future start: the earliest time the job fits in {@code partition} on {@code nodes}, given the plan. */
    record Reservation(Instant start, String partition, List<String> nodes) {
        public Reservation {
            nodes = List.copyOf(nodes);
        }
    }
}
