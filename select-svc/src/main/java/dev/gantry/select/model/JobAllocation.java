package dev.gantry.select.model;

import dev.gantry.placement.Owner;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A running or suspended job's resources. A suspended job keeps its CPUs and memory: Slurm frees neither on
 * suspend unless gang scheduling shares them, which gang-svc decides.
 *
 * @param endTime   start + time limit: when the resources are expected back; null when unknown (never)
 * @param exclusive the job has its nodes to itself (--exclusive): no other job may share them, even under FORCE
 * @param owner     its user and its own --exclusive=user (placement adds its partition's ExclusiveUser=YES from the
 *                  replica)
 */
public record JobAllocation(long jobId, String partition, List<NodeAllotment> nodes, boolean suspended, Instant endTime,
                            boolean exclusive, Owner owner) {

    public JobAllocation {
        nodes = List.copyOf(nodes);
        owner = owner == null ? Owner.NONE : owner;
    }

    public JobAllocation(long jobId, String partition, List<NodeAllotment> nodes, boolean suspended, Instant endTime,
                         boolean exclusive) {
        this(jobId, partition, nodes, suspended, endTime, exclusive, Owner.NONE);
    }

    public JobAllocation(long jobId, String partition, List<NodeAllotment> nodes, boolean suspended) {
        this(jobId, partition, nodes, suspended, null, false, Owner.NONE);
    }

    public JobAllocation(long jobId, String partition, List<NodeAllotment> nodes, boolean suspended, Instant endTime) {
        this(jobId, partition, nodes, suspended, endTime, false, Owner.NONE);
    }

    public Optional<Instant> expectedEnd() {
        return Optional.ofNullable(endTime);
    }

    /** CPUs held on all nodes together. */
    public long cpus() {
        return nodes.stream().mapToLong(NodeAllotment::cpus).sum();
    }
}
