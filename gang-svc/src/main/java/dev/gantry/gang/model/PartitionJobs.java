package dev.gantry.gang.model;

import java.util.List;

/**
 * The jobs holding resources in one partition, in allocation order, and which of them are active (running, not
 * suspended), in the same order.
 */
public record PartitionJobs(String partition, List<Long> jobIds, List<Long> activeJobIds) {

    public PartitionJobs {
        jobIds = List.copyOf(jobIds);
        activeJobIds = List.copyOf(activeJobIds);
    }

    public int running() {
        return activeJobIds.size();
    }

    public int suspended() {
        return jobIds.size() - activeJobIds.size();
    }
}
