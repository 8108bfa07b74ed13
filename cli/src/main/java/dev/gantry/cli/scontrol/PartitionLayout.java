package dev.gantry.cli.scontrol;

import dev.gantry.api.v1.Partition;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.units.SlurmTime;

/**
 * {@code scontrol show partition}: Slurm's field order and spelling (slurm_sprint_partition_info in
 * src/api/partition_info.c). Settings Gantry does not have print as Slurm's defaults.
 *
 * @param oneLiner scontrol -o
 */
public record PartitionLayout(boolean oneLiner) {

    /** One partition's record, ending with a blank line (one-liner: a newline). */
    public String render(Partition p) {
        KeyValueRecord r = new KeyValueRecord(oneLiner);
        r.add("PartitionName=" + p.getName()).newLine();
        r.add("AllowGroups=ALL AllowAccounts=" + list(p.getAllowAccountsList()) + " AllowQos=" + list(p.getAllowQosList()))
                .newLine();
        r.add("AllocNodes=ALL Default=" + (p.getIsDefault() ? "YES" : "NO") + " QoS=N/A").newLine();
        r.add("DefaultTime=" + (p.getDefaultTimeSeconds() < 0 ? "NONE" : SlurmTime.formatLimitLong(p.getDefaultTimeSeconds()))
                + " DisableRootJobs=NO ExclusiveUser=" + (p.getExclusiveUser() ? "YES" : "NO")
                + " GraceTime=" + p.getGraceTimeSeconds() + " Hidden=NO").newLine();
        r.add("MaxNodes=" + (p.getMaxNodes() < 0 ? "UNLIMITED" : Integer.toString(p.getMaxNodes()))
                + " MaxTime=" + SlurmTime.formatLimitLong(p.getMaxTimeSeconds())
                + " MinNodes=" + p.getMinNodes() + " LLN=NO MaxCPUsPerNode=UNLIMITED").newLine();
        String nodes = p.getNodeList().isEmpty() && p.getNodesCount() > 0
                ? Hostlist.compress(p.getNodesList()) : p.getNodeList();
        r.add("Nodes=" + KeyValueRecord.orNull(nodes)).newLine();
        r.add("PriorityJobFactor=" + p.getPriorityJobFactor() + " PriorityTier=" + p.getPriorityTier()
                + " RootOnly=NO ReqResv=NO OverSubscribe=" + overSubscribe(p)).newLine();
        r.add("OverTimeLimit=NONE PreemptMode=" + preemptMode(p)).newLine();
        r.add("State=" + state(p) + " TotalCPUs=" + p.getTotalCpus() + " TotalNodes=" + p.getNodesCount()
                + " SelectTypeParameters=NONE").newLine();
        r.add("JobDefaults=(null)").newLine();
        // Slurm prints DefMemPerCPU/MaxMemPerCPU in place of the per-node key when the per-CPU limit is set
        r.add((p.getDefMemPerCpuMb() > 0 ? "DefMemPerCPU=" + p.getDefMemPerCpuMb()
                : "DefMemPerNode=" + (p.getDefMemPerNodeMb() > 0 ? Long.toString(p.getDefMemPerNodeMb()) : "UNLIMITED"))
                + (p.getMaxMemPerCpuMb() > 0 ? " MaxMemPerCPU=" + p.getMaxMemPerCpuMb()
                : " MaxMemPerNode=" + (p.getMaxMemPerNodeMb() > 0 ? Long.toString(p.getMaxMemPerNodeMb()) : "UNLIMITED")));
        return r.end();
    }

    /**
     * The PreemptMode in force as the controller spells it (the partition's own, else the cluster's, e.g. GANG,SUSPEND);
     * from a controller that does not send it, the partition's own or OFF.
     */
    private static String preemptMode(Partition p) {
        if (!p.getEffectivePreemptMode().isEmpty()) {
            return p.getEffectivePreemptMode();
        }
        return p.getPreemptMode().isEmpty() ? "OFF" : p.getPreemptMode();
    }

    /** A partition's Allow list as scontrol prints it: ALL when it names none. */
    private static String list(java.util.List<String> names) {
        return names.isEmpty() ? "ALL" : String.join(",", names);
    }

    /** The partition's state as Slurm names it (scontrol's State=; sinfo prints it in lower case). */
    public static String state(Partition p) {
        return switch (p.getState()) {
            case PARTITION_STATE_UP -> "UP";
            case PARTITION_STATE_DOWN -> "DOWN";
            case PARTITION_STATE_DRAIN -> "DRAIN";
            case PARTITION_STATE_INACTIVE -> "INACTIVE";
            case PARTITION_STATE_UNSPECIFIED, UNRECOGNIZED -> "UNKNOWN";
        };
    }

    /** NO, EXCLUSIVE, YES:n, FORCE:n as scontrol prints them. */
    private static String overSubscribe(dev.gantry.api.v1.Partition p) {
        return switch (p.getOverSubscribe()) {
            case OVER_SUBSCRIBE_YES -> "YES:" + p.getOverSubscribeJobs();
            case OVER_SUBSCRIBE_FORCE -> "FORCE:" + p.getOverSubscribeJobs();
            case OVER_SUBSCRIBE_EXCLUSIVE -> "EXCLUSIVE";
            default -> "NO";
        };
    }
}
