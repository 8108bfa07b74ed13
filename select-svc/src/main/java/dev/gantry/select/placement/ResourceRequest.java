package dev.gantry.select.placement;

import dev.gantry.placement.Owner;
import java.util.List;

/**
 * A pending job's resource request, defaults already applied by scheduler-svc.
 *
 * @param partitions    candidate partitions in the job's order of preference (at least one)
 * @param minNodes      fewest nodes the job accepts (at least 1)
 * @param maxNodes      most nodes the job accepts (at least {@code minNodes})
 * @param numTasks      tasks (at least 1)
 * @param cpusPerTask   CPUs per task (at least 1)
 * @param memPerNodeMb  MiB needed on each node; 0 = memory not requested
 * @param options       the rest of the job's options ({@link JobOptions#NONE} for none)
 * @param owner         the job's user and its own --exclusive=user (each partition's ExclusiveUser=YES is added where
 *                      the job is tried in it)
 * @throws IllegalArgumentException naming the gantry.v1.ResourceRequest field that is wrong
 */
public record ResourceRequest(long jobId, List<String> partitions, int minNodes, int maxNodes, int numTasks,
                              int cpusPerTask, long memPerNodeMb, JobOptions options, Owner owner) {

    public ResourceRequest(long jobId, List<String> partitions, int minNodes, int maxNodes, int numTasks, int cpusPerTask,
                           long memPerNodeMb) {
        this(jobId, partitions, minNodes, maxNodes, numTasks, cpusPerTask, memPerNodeMb, JobOptions.NONE);
    }

    /** An unknown user's job, not user-exclusive of its own. */
    public ResourceRequest(long jobId, List<String> partitions, int minNodes, int maxNodes, int numTasks, int cpusPerTask,
                           long memPerNodeMb, JobOptions options) {
        this(jobId, partitions, minNodes, maxNodes, numTasks, cpusPerTask, memPerNodeMb, options, Owner.NONE);
    }

    public ResourceRequest {
        owner = owner == null ? Owner.NONE : owner;
        partitions = List.copyOf(partitions);
        if (jobId == 0) {
            throw new IllegalArgumentException("job_id must be set");
        }
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("partitions must name at least one partition");
        }
        if (partitions.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("partitions must not contain an empty name");
        }
        requirePositive("min_nodes", minNodes);
        requirePositive("max_nodes", maxNodes);
        requirePositive("num_tasks", numTasks);
        requirePositive("cpus_per_task", cpusPerTask);
        if (minNodes > maxNodes) {
            throw new IllegalArgumentException("min_nodes (" + minNodes + ") must not exceed max_nodes (" + maxNodes + ")");
        }
        if (memPerNodeMb < 0) {
            throw new IllegalArgumentException("mem_per_node_mb must not be negative, got " + memPerNodeMb);
        }
        if (memPerNodeMb > 0 && options.memPerCpuMb() > 0) {
            throw new IllegalArgumentException("mem_per_node_mb and mem_per_cpu_mb are mutually exclusive");
        }
    }

    public ResourceRequest withOptions(JobOptions options) {
        return new ResourceRequest(jobId, partitions, minNodes, maxNodes, numTasks, cpusPerTask, memPerNodeMb, options, owner);
    }

    public ResourceRequest withOwner(Owner owner) {
        return new ResourceRequest(jobId, partitions, minNodes, maxNodes, numTasks, cpusPerTask, memPerNodeMb, options, owner);
    }

    /** num_tasks × cpus_per_task. */
    public long totalCpus() {
        return (long) numTasks * cpusPerTask;
    }

    private static void requirePositive(String field, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be positive, got " + value);
        }
    }
}
