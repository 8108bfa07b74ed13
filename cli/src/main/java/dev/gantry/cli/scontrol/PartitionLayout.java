package dev.gantry.cli.scontrol;

import dev.gantry.cli.model.PartitionInfo;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.units.SlurmTime;
import java.util.List;

/**
 * {@code scontrol show partition}: Slurm's field order and spelling (slurm_sprint_partition_info in
 * src/api/partition_info.c). Settings Gantry does not have print as Slurm's defaults.
 *
 * @param oneLiner scontrol -o
 */
public record PartitionLayout(boolean oneLiner) {

    /** One partition's record, ending with a blank line (one-liner: a newline). */
    public String render(PartitionInfo p) {
        KeyValueRecord r = new KeyValueRecord(oneLiner);
        r.add("PartitionName=" + p.name()).newLine();
        r.add("AllowGroups=ALL AllowAccounts=" + list(p.allowAccounts()) + " AllowQos=" + list(p.allowQos()))
                .newLine();
        r.add("AllocNodes=ALL Default=" + (p.isDefault() ? "YES" : "NO") + " QoS=N/A").newLine();
        r.add("DefaultTime=" + (p.defaultTimeSeconds() < 0 ? "NONE" : SlurmTime.formatLimitLong(p.defaultTimeSeconds()))
                + " DisableRootJobs=NO ExclusiveUser=" + (p.exclusiveUser() ? "YES" : "NO")
                + " GraceTime=" + p.graceTimeSeconds() + " Hidden=NO").newLine();
        r.add("MaxNodes=" + (p.maxNodes() < 0 ? "UNLIMITED" : Integer.toString(p.maxNodes()))
                + " MaxTime=" + SlurmTime.formatLimitLong(p.maxTimeSeconds())
                + " MinNodes=" + p.minNodes() + " LLN=NO MaxCPUsPerNode=UNLIMITED").newLine();
        String nodes = p.nodeList().isEmpty() && !p.nodes().isEmpty() ? Hostlist.compress(p.nodes()) : p.nodeList();
        r.add("Nodes=" + KeyValueRecord.orNull(nodes)).newLine();
        r.add("PriorityJobFactor=" + p.priorityJobFactor() + " PriorityTier=" + p.priorityTier()
                + " RootOnly=NO ReqResv=NO OverSubscribe=" + overSubscribe(p)).newLine();
        r.add("OverTimeLimit=NONE PreemptMode=" + preemptMode(p)).newLine();
        r.add("State=" + state(p) + " TotalCPUs=" + p.totalCpus() + " TotalNodes=" + p.nodes().size()
                + " SelectTypeParameters=NONE").newLine();
        r.add("JobDefaults=(null)").newLine();
        // Slurm prints DefMemPerCPU/MaxMemPerCPU in place of the per-node key when the per-CPU limit is set
        PartitionInfo.MemoryLimits m = p.memory();
        r.add((m.defPerCpuMb() > 0 ? "DefMemPerCPU=" + m.defPerCpuMb()
                : "DefMemPerNode=" + (m.defPerNodeMb() > 0 ? Long.toString(m.defPerNodeMb()) : "UNLIMITED"))
                + (m.maxPerCpuMb() > 0 ? " MaxMemPerCPU=" + m.maxPerCpuMb()
                : " MaxMemPerNode=" + (m.maxPerNodeMb() > 0 ? Long.toString(m.maxPerNodeMb()) : "UNLIMITED")));
        return r.end();
    }

    /**
     * The PreemptMode in force as the controller spells it (the partition's own, else the cluster's, e.g. GANG,SUSPEND);
     * from a controller that does not send it, the partition's own or OFF.
     */
    private static String preemptMode(PartitionInfo p) {
        if (!p.effectivePreemptMode().isEmpty()) {
            return p.effectivePreemptMode();
        }
        return p.preemptMode().isEmpty() ? "OFF" : p.preemptMode();
    }

    /** A partition's Allow list as scontrol prints it: ALL when it names none. */
    private static String list(List<String> names) {
        return names.isEmpty() ? "ALL" : String.join(",", names);
    }

    /** The partition's state as Slurm names it (scontrol's State=; sinfo prints it in lower case). */
    public static String state(PartitionInfo p) {
        return p.state().name();
    }

    /** NO, EXCLUSIVE, YES:n, FORCE:n as scontrol prints them. */
    private static String overSubscribe(PartitionInfo p) {
        return switch (p.overSubscribe()) {
            case YES -> "YES:" + p.overSubscribeJobs();
            case FORCE -> "FORCE:" + p.overSubscribeJobs();
            case EXCLUSIVE -> "EXCLUSIVE";
            case NO -> "NO";
        };
    }
}
