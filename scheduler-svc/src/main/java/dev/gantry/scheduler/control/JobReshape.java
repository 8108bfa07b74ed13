package dev.gantry.scheduler.control;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.scheduler.model.JobRecord;
import java.util.List;

/**
 * The part of scontrol update that re-checks a pending job as a submission: Partition=, NumNodes=, QOS=, Account=.
 * Slurm edits the job record in place, so an update changes only what it names and keeps every earlier update: the
 * request to re-check is the job's current one (its effective partitions, node counts, time limit, QOS and account, not
 * the spec as first submitted) with these changes applied. Pure.
 *
 * @param partitions Partition=, in order; empty = unchanged
 * @param minNodes NumNodes= minimum, or null = unchanged
 * @param maxNodes NumNodes= maximum, or null = unchanged (a minimum above the current maximum raises it too)
 * @param qos QOS=, or null = unchanged
 * @param account Account=, or null = unchanged
 */
public record JobReshape(List<String> partitions, Integer minNodes, Integer maxNodes, String qos, String account) {

    public JobReshape {
        partitions = List.copyOf(partitions);
    }

    /** Whether the update names any of these fields. */
    public boolean any() {
        return !partitions.isEmpty() || minNodes != null || maxNodes != null || qos != null || account != null;
    }

    /** The request {@code j} stands for now, with this update applied: what to re-check and keep as its spec. */
    public JobSpec request(JobRecord j) {
        int min = minNodes != null ? minNodes : j.ask().minNodes();
        int max = maxNodes != null ? maxNodes : minNodes != null ? Math.max(minNodes, j.ask().maxNodes()) : j.ask().maxNodes();
        return j.spec().toBuilder()
                .setTimeLimitSeconds(j.timeLimitSeconds())
                .clearPartitions().addAllPartitions(partitions.isEmpty() ? j.partitions() : partitions)
                .setMinNodes(min)
                .setMaxNodes(max)
                .setQos(qos != null ? qos : j.controls().qos())
                .setAccount(account != null ? account : j.controls().account())
                .build();
    }
}
