package dev.gantry.select.model;

import dev.gantry.api.v1.Allocation;
import java.util.List;

/**
 * A running or suspended job's resources. A suspended job keeps its CPUs and memory: Slurm frees neither on
 * suspend unless gang scheduling shares them, which gang-svc decides (a later issue).
 */
public record JobAllocation(long jobId, String partition, List<NodeShare> nodes, boolean suspended) {

    public JobAllocation {
        nodes = List.copyOf(nodes);
    }

    public static JobAllocation from(Allocation allocation) {
        return new JobAllocation(allocation.getJobId(), allocation.getPartition(),
                allocation.getNodesList().stream().map(NodeShare::from).toList(), allocation.getSuspended());
    }
}
