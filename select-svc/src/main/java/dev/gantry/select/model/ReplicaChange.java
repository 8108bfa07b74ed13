package dev.gantry.select.model;

/**
 * One event of the controller's stream as {@link Replica} applies it; the runtime maps the stream's messages to these.
 * Node and allocation changes are upserts.
 */
public sealed interface ReplicaChange {

    /** A node was added or its description changed. */
    record NodeChanged(ClusterNode node) implements ReplicaChange {}

    /** An allocation was added or changed (its GRES already counted against its nodes' pools). */
    record AllocationPut(JobAllocation allocation) implements ReplicaChange {}

    /** The job's allocation is gone. */
    record AllocationReleased(long jobId) implements ReplicaChange {}

    /** A kind this build does not know: nothing select cares about. */
    record Unrelated() implements ReplicaChange {}
}
