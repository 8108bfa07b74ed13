package dev.gantry.cli.scontrol;

import dev.gantry.api.v1.Node;
import dev.gantry.cli.sinfo.NodeCondition;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.cli.text.SlurmSizes;
import java.time.ZoneId;

/**
 * {@code scontrol show node}: Slurm's field order and spelling (slurm_sprint_node_table in src/api/node_info.c).
 *
 * @param zone the zone times print in
 * @param oneLiner scontrol -o
 */
public record NodeLayout(ZoneId zone, boolean oneLiner) {

    /** One node's record, ending with a blank line (one-liner: a newline). */
    public String render(Node node) {
        KeyValueRecord r = new KeyValueRecord(oneLiner);
        r.add("NodeName=" + node.getName() + " CoresPerSocket=" + node.getCoresPerSocket() + " ").newLine();
        r.add("CPUAlloc=" + node.getAllocCpus() + " CPUEfctv=" + node.getCpus() + " CPUTot=" + node.getCpus()
                + " CPULoad=N/A").newLine();
        String features = node.getFeaturesCount() == 0 ? "(null)" : String.join(",", node.getFeaturesList());
        r.add("AvailableFeatures=" + features).newLine();
        r.add("ActiveFeatures=" + features).newLine();
        r.add("Gres=" + (node.getGresCount() == 0 ? "(null)"
                : String.join(",", node.getGresList().stream().map(JobLayout::gresText).toList()))).newLine();
        String address = node.getAgentAddress();
        int colon = address.lastIndexOf(':');
        if (colon > 0) {
            r.add("NodeAddr=" + address.substring(0, colon) + " NodeHostName=" + node.getName() + " Port="
                    + address.substring(colon + 1) + " ").newLine();
        }
        r.add("RealMemory=" + node.getRealMemoryMb() + " AllocMem=" + node.getAllocMemoryMb()
                + " FreeMem=N/A Sockets=" + node.getSockets() + " Boards=1").newLine();
        r.add("State=" + NodeCondition.of(node).complete() + " ThreadsPerCore=" + node.getThreadsPerCore()
                + " TmpDisk=0 Weight=" + node.getWeight() + " Owner=N/A MCS_label=N/A").newLine();
        if (node.getPartitionsCount() > 0) {
            r.add("Partitions=" + String.join(",", node.getPartitionsList()) + " ").newLine();
        }
        var boot = SlurmClock.instant(node.getBootTime());
        r.add("BootTime=" + (boot == null ? "None" : SlurmClock.scontrolTime(boot, zone))
                + " SlurmdStartTime=None").newLine();
        r.add("LastBusyTime=Unknown ResumeAfterTime=None").newLine();
        r.add("CfgTRES=cpu=" + node.getCpus() + ",mem=" + SlurmSizes.mebibytes(node.getRealMemoryMb())
                + ",billing=" + node.getCpus() + gresTres(node.getGresList())).newLine();
        r.add("AllocTRES=" + allocTres(node)).newLine();
        r.add("CurrentWatts=0 AveWatts=0");
        if (!node.getReason().isEmpty()) {
            r.newLine().add("Reason=" + node.getReason());
        }
        return r.end();
    }

    private static String allocTres(Node node) {
        if (node.getAllocCpus() == 0 && node.getAllocMemoryMb() == 0) {
            return "";
        }
        String tres = "cpu=" + node.getAllocCpus();
        tres = node.getAllocMemoryMb() > 0 ? tres + ",mem=" + SlurmSizes.mebibytes(node.getAllocMemoryMb()) : tres;
        return tres + gresTres(node.getAllocGresList());
    }

    /** ",gres/gpu=3,gres/gpu:a100=2,gres/gpu:v100=1": totals per name, then per typed name (as Slurm's TRES). */
    private static String gresTres(java.util.List<dev.gantry.api.v1.Gres> gres) {
        var byName = new java.util.TreeMap<String, Long>();
        var byType = new java.util.TreeMap<String, Long>();
        for (var g : gres) {
            byName.merge(g.getName(), g.getCount(), Long::sum);
            if (!g.getType().isEmpty()) {
                byType.merge(g.getName() + ":" + g.getType(), g.getCount(), Long::sum);
            }
        }
        StringBuilder b = new StringBuilder();
        byName.forEach((k, v) -> b.append(",gres/").append(k).append('=').append(v));
        byType.forEach((k, v) -> b.append(",gres/").append(k).append('=').append(v));
        return b.toString();
    }
}
