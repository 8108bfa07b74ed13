package dev.gantry.scheduler.cycle;

import dev.gantry.common.config.PartitionConfig;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.PendingReason;
import dev.gantry.scheduler.queue.QueueOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The main scheduling pass's first half: which pending jobs to ask select-svc to place, in queue order, and
 * the reasons for those that cannot be considered at all (partition down, partition node limit). Placement
 * itself is select-svc's; it stops at the first blocked job of each partition, so lower jobs never jump it.
 * Pure.
 */
public final class MainPass {
    private MainPass() {}

    /**
     * @param candidates pending jobs to place, in queue order
     * @param reasons jobs left out now, with their pending reason
     */
    public record Input(List<JobRecord> candidates, Map<Long, String> reasons) {}

    public static Input prepare(ClusterState state) {
        List<JobRecord> pending = new ArrayList<>();
        for (JobRecord j : state.jobs()) {
            if (j.state() == JobState.PENDING && !j.completing()) {
                pending.add(j);
            }
        }
        pending.sort(QueueOrder.of(state::tier));
        List<JobRecord> candidates = new ArrayList<>();
        Map<Long, String> reasons = new LinkedHashMap<>();
        for (JobRecord j : pending) {
            String blocked = null;
            boolean anyUsable = false;
            for (String name : j.partitions()) {
                PartitionConfig p = state.partition(name);
                if (p == null) {
                    continue;
                }
                if (!p.state().equals("UP")) {
                    blocked = blocked == null ? (p.state().equals("INACTIVE") ? PendingReason.PARTITION_INACTIVE
                            : PendingReason.PARTITION_DOWN) : blocked;
                    continue;
                }
                if (p.maxNodes() >= 0 && j.ask().minNodes() > p.maxNodes()) {
                    blocked = blocked == null ? PendingReason.PARTITION_NODE_LIMIT : blocked;
                    continue;
                }
                anyUsable = true;
            }
            if (anyUsable) {
                candidates.add(j);
            } else {
                reasons.put(j.id(), blocked == null ? PendingReason.RESOURCES : blocked);
            }
        }
        return new Input(candidates, reasons);
    }
}
