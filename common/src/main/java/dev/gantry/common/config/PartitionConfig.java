package dev.gantry.common.config;

import java.util.List;

/**
 * A partition from a PartitionName= line, its options parsed and typed at load. Times are seconds, -1 = UNLIMITED;
 * memory limits are MiB, 0 = not limited; maxNodes -1 = UNLIMITED. preemptMode is null when the partition has none of
 * its own (the cluster's applies). backfillPolicy is Moab's BACKFILLPOLICY for the partition's jobs (see
 * {@link BackfillPolicy}).
 */
public record PartitionConfig(
        String name,
        List<String> nodes,
        boolean isDefault,
        long maxTimeSeconds,
        long defaultTimeSeconds,
        PartitionState state,
        int maxNodes,
        int minNodes,
        int priorityTier,
        int priorityJobFactor,
        OverSubscribe overSubscribe,
        PreemptMode preemptMode,
        long graceTimeSeconds,
        List<String> allowAccounts,
        List<String> allowQos,
        long defMemPerCpuMb,
        long defMemPerNodeMb,
        long maxMemPerCpuMb,
        long maxMemPerNodeMb,
        boolean exclusiveUser,
        boolean hidden,
        BackfillPolicy backfillPolicy,
        int line) {}
