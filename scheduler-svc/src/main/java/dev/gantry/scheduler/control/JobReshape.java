package dev.gantry.scheduler.control;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import java.util.List;

/**
 * The part of scontrol update that re-checks a pending job as a submission: Partition=, NumNodes=, QOS=, Account=.
 * Slurm edits the job record in place, so an update changes only what it names and keeps every earlier update: the
 * request to re-check is the job's current one (its effective partitions, node counts, time limit, QOS and account, not
 * the spec as first submitted) with these changes applied. Pure.
 *
 * @param partitions Partition=, in order; empty = unchanged
 * @param minNodes NumNodes= minimum, or null = unchanged
 * @param maxNodes NumNodes= maximum, or null = unchanged
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

    /** Slurm's refusal of a node count: ESLURM_INVALID_NODE_COUNT. */
    public static final String INVALID_NODE_COUNT = "Node count specification invalid";

    /**
     * Why {@code j} cannot take this update before any re-check, or null: NumNodes=N alone keeps the job's maximum, so
     * N above a maximum it asked for is refused (Slurm: "Node count specification invalid"); a job that asked for no
     * node count has no maximum to keep.
     */
    public String refusal(JobRecord j) {
        if (minNodes != null && maxNodes == null && j.request().namesNodeCount() && minNodes > j.ask().maxNodes()) {
            return INVALID_NODE_COUNT;
        }
        if (minNodes != null && maxNodes != null && minNodes > maxNodes) {
            return INVALID_NODE_COUNT;
        }
        return null;
    }

    /** Whether the update names a node count. */
    public boolean namesNodes() {
        return minNodes != null || maxNodes != null;
    }

    /**
     * The request {@code j} stands for now, with this update applied: what to re-check and keep as its request. Node
     * counts the update does not name stay as the request has them — given (then the job's current ones) or left to the
     * defaults (so scontrol still shows the count as not requested) — unless {@code pinNodes}, which gives the job's
     * current counts in any case (for a job whose counts came from an update its request does not hold).
     */
    public JobRequest request(JobRecord j, boolean pinNodes) {
        JobRequest.Builder b = j.request().toBuilder()
                .timeLimitSeconds(j.timeLimitSeconds())
                .partitions(partitions.isEmpty() ? j.partitions() : partitions)
                .qos(qos != null ? qos : j.controls().qos())
                .account(account != null ? account : j.controls().account());
        if (minNodes != null) {
            b.minNodes(minNodes);
            if (maxNodes != null) {
                b.maxNodes(maxNodes);
            } else if (j.request().namesNodeCount()) {
                b.maxNodes(j.ask().maxNodes()); // kept (refusal() saw it is not below the minimum)
            }
        } else if (maxNodes != null) {
            b.minNodes(j.ask().minNodes()).maxNodes(maxNodes);
        } else if (pinNodes || j.request().namesNodeCount()) {
            b.minNodes(j.ask().minNodes()).maxNodes(j.ask().maxNodes());
        }
        return b.build();
    }
}
