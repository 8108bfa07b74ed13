package dev.gantry.gang.slice;

import dev.gantry.common.overlap.NodeHold;
import java.time.Instant;
import java.util.List;

/**
 * A job holding resources, as the controller reports it: where, whether it is suspended now, and since when (null
 * when running or not reported).
 */
public record Allocated(long jobId, String partition, List<NodeHold> nodes, boolean suspended, Instant suspendedSince) {

    public Allocated {
        nodes = List.copyOf(nodes);
    }

    public Allocated(long jobId, String partition, List<NodeHold> nodes, boolean suspended) {
        this(jobId, partition, nodes, suspended, null);
    }
}
