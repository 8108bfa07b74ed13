package dev.gantry.common.config;

import java.util.List;

/**
 * A partition from a PartitionName= line. Times are seconds, -1 = UNLIMITED; memory limits are MiB,
 * 0 = not limited; maxNodes -1 = UNLIMITED. backfillPolicy is Moab's BACKFILLPOLICY for the partition's jobs:
 * FIRSTFIT (default: backfill delays no reservation) or PREEMPT (a backfill job may overlap a reservation and is
 * preempted when the reserved job's start comes).
 */
public record PartitionConfig(
        String name,
        List<String> nodes,
        boolean isDefault,
        long maxTimeSeconds,
        long defaultTimeSeconds,
        String state,
        int maxNodes,
        int minNodes,
        int priorityTier,
        int priorityJobFactor,
        String overSubscribe,
        String preemptMode,
        long graceTimeSeconds,
        List<String> allowAccounts,
        List<String> allowQos,
        long defMemPerCpuMb,
        long defMemPerNodeMb,
        long maxMemPerCpuMb,
        long maxMemPerNodeMb,
        boolean exclusiveUser,
        boolean hidden,
        String backfillPolicy,
        int line) {}
