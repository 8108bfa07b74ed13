package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.PreemptMode;
import java.util.Set;

/**
 * What preemption reads from a partition.
 *
 * @param tier PriorityTier: under preempt/partition_prio, jobs of a higher tier preempt jobs of lower tiers
 * @param mode its PreemptMode, null = the cluster's
 * @param graceSeconds GraceTime for its jobs when preempted by CANCEL or REQUEUE (preempt/partition_prio)
 * @param exclusiveUser ExclusiveUser=YES: its jobs neither preempt nor are preempted by other users' jobs
 * @param wholeNodes OverSubscribe=EXCLUSIVE: every job gets whole nodes (is fully exclusive)
 * @param nodes its nodes, expanded
 */
public record PartitionRule(String name, int tier, PreemptMode mode, long graceSeconds, boolean exclusiveUser,
        boolean wholeNodes, Set<String> nodes) {

    public PartitionRule {
        nodes = Set.copyOf(nodes);
    }
}
