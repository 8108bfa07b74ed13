package dev.gantry.scheduler.cycle;

import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.config.PartitionState;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.queue.QueueOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The main scheduling pass's first half: which pending jobs to ask select-svc to place, in queue order, and
 * the reasons for those that cannot be considered now (held, begin time, dependencies, limits — see
 * {@link Eligibility} — or partition down, partition node or time limit). Placement
 * itself is select-svc's; it stops at the first blocked job of each partition, so lower jobs never jump it.
 * Pure.
 */
public final class MainPass {
    private MainPass() {}

    /**
     * @param candidates pending jobs to place, in queue order
     * @param pendingReasons jobs left out now, with their pending reason, in queue order
     */
    public record Input(List<JobRecord> candidates, Map<Long, PendingReason> pendingReasons) {}

    /** Every pending job considered, none limited (the walking skeleton's pass). */
    public static Input prepare(ClusterState state) {
        return prepare(state, new Eligibility(java.time.Instant.EPOCH, List.of(), Map.of(), j -> Eligibility.Verdict.SATISFIED));
    }

    /** @param eligibility this pass's holds, dependencies and limits; jobs let through are counted against it */
    public static Input prepare(ClusterState state, Eligibility eligibility) {
        List<JobRecord> pending = new ArrayList<>();
        for (JobRecord j : state.jobs()) {
            if (j.state() == JobState.PENDING && !j.completing()) {
                pending.add(j);
            }
        }
        QueueOrder.sort(pending, state::tier);
        List<JobRecord> candidates = new ArrayList<>();
        Map<Long, PendingReason> reasons = new LinkedHashMap<>();
        for (JobRecord j : pending) {
            PendingReason notYet = eligibility.reason(j);
            if (notYet != null) {
                reasons.put(j.id(), notYet);
                continue;
            }
            PendingReason blocked = null;
            boolean anyUsable = false;
            for (String name : j.partitions()) {
                PartitionConfig p = state.partition(name);
                if (p == null) {
                    continue;
                }
                if (p.state() != PartitionState.UP) {
                    blocked = blocked == null ? (p.state() == PartitionState.INACTIVE ? PendingReason.PARTITION_INACTIVE
                            : PendingReason.PARTITION_DOWN) : blocked;
                    continue;
                }
                if (p.maxNodes() >= 0 && j.ask().minNodes() > p.maxNodes()) {
                    blocked = blocked == null ? PendingReason.PARTITION_NODE_LIMIT : blocked;
                    continue;
                }
                if (p.maxTimeSeconds() >= 0 && (j.timeLimitSeconds() < 0 || j.timeLimitSeconds() > p.maxTimeSeconds())) {
                    blocked = blocked == null ? PendingReason.PARTITION_TIME_LIMIT : blocked;
                    continue;
                }
                anyUsable = true;
            }
            if (anyUsable) {
                candidates.add(j);
                eligibility.admit(j);
            } else {
                reasons.put(j.id(), blocked == null ? PendingReason.RESOURCES : blocked);
            }
        }
        return new Input(candidates, reasons);
    }
}
