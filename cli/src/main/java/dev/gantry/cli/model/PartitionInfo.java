package dev.gantry.cli.model;

import dev.gantry.common.config.OverSubscribe;
import java.util.List;

/**
 * A partition as sinfo and scontrol show it (Slurm's partition_info_t). Limits in seconds and MiB.
 *
 * @param name the partition's name
 * @param state its State=
 * @param isDefault Default=YES
 * @param nodes its nodes' names, in configuration order
 * @param nodeList the same as a host list; "" when the controller sent only the names
 * @param maxTimeSeconds MaxTime=; -1 UNLIMITED
 * @param defaultTimeSeconds DefaultTime=; -1 none
 * @param maxNodes MaxNodes=; -1 UNLIMITED
 * @param minNodes MinNodes=
 * @param totalCpus CPUs of its nodes
 * @param priorityTier PriorityTier=
 * @param priorityJobFactor PriorityJobFactor=
 * @param overSubscribe OverSubscribe='s word
 * @param overSubscribeJobs YES:n and FORCE:n's n
 * @param memory DefMemPerCPU, DefMemPerNode, MaxMemPerCPU, MaxMemPerNode in effect
 * @param allowAccounts AllowAccounts=; empty for ALL
 * @param allowQos AllowQos=; empty for ALL
 * @param preemptMode its own PreemptMode=; "" for the cluster's
 * @param effectivePreemptMode the PreemptMode in force as the controller spells it; "" when it sent none
 * @param graceTimeSeconds GraceTime=
 * @param exclusiveUser ExclusiveUser=YES
 */
public record PartitionInfo(String name, PartitionStatus state, boolean isDefault, List<String> nodes, String nodeList,
                            long maxTimeSeconds, long defaultTimeSeconds, int maxNodes, int minNodes, int totalCpus,
                            int priorityTier, int priorityJobFactor, OverSubscribe.Kind overSubscribe,
                            int overSubscribeJobs, MemoryLimits memory, List<String> allowAccounts,
                            List<String> allowQos, String preemptMode, String effectivePreemptMode,
                            long graceTimeSeconds, boolean exclusiveUser) {

    public PartitionInfo {
        nodes = List.copyOf(nodes);
        allowAccounts = List.copyOf(allowAccounts);
        allowQos = List.copyOf(allowQos);
    }

    /**
     * A partition's memory limits in MiB, its own or else the cluster's; 0 for none.
     *
     * @param defPerCpuMb DefMemPerCPU
     * @param defPerNodeMb DefMemPerNode
     * @param maxPerCpuMb MaxMemPerCPU
     * @param maxPerNodeMb MaxMemPerNode
     */
    public record MemoryLimits(long defPerCpuMb, long defPerNodeMb, long maxPerCpuMb, long maxPerNodeMb) {}
}
