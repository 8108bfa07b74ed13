package dev.gantry.cli.scontrol;

import dev.gantry.cli.model.GresInfo;
import dev.gantry.cli.model.NodeInfo;
import dev.gantry.cli.sinfo.NodeCondition;
import dev.gantry.cli.text.SlurmClock;
import dev.gantry.cli.text.SlurmSizes;
import java.time.ZoneId;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code scontrol show node}: Slurm's field order and spelling (slurm_sprint_node_table in src/api/node_info.c).
 *
 * @param zone the zone times print in
 * @param oneLiner scontrol -o
 */
public record NodeLayout(ZoneId zone, boolean oneLiner) {

    /** One node's record, ending with a blank line (one-liner: a newline). */
    public String render(NodeInfo node) {
        KeyValueRecord r = new KeyValueRecord(oneLiner);
        r.add("NodeName=" + node.name() + " CoresPerSocket=" + node.coresPerSocket() + " ").newLine();
        r.add("CPUAlloc=" + node.allocCpus() + " CPUEfctv=" + node.cpus() + " CPUTot=" + node.cpus()
                + " CPULoad=N/A").newLine();
        String features = node.features().isEmpty() ? "(null)" : String.join(",", node.features());
        r.add("AvailableFeatures=" + features).newLine();
        r.add("ActiveFeatures=" + features).newLine();
        r.add("Gres=" + (node.gres().isEmpty() ? "(null)"
                : String.join(",", node.gres().stream().map(JobLayout::gresText).toList()))).newLine();
        String address = node.agentAddress();
        int colon = address.lastIndexOf(':');
        if (colon > 0) {
            r.add("NodeAddr=" + address.substring(0, colon) + " NodeHostName=" + node.name() + " Port="
                    + address.substring(colon + 1) + " ").newLine();
        }
        r.add("RealMemory=" + node.realMemoryMb() + " AllocMem=" + node.allocMemoryMb()
                + " FreeMem=N/A Sockets=" + node.sockets() + " Boards=1").newLine();
        r.add("State=" + NodeCondition.of(node).complete() + " ThreadsPerCore=" + node.threadsPerCore()
                + " TmpDisk=0 Weight=" + node.weight() + " Owner=N/A MCS_label=N/A").newLine();
        if (!node.partitions().isEmpty()) {
            r.add("Partitions=" + String.join(",", node.partitions()) + " ").newLine();
        }
        r.add("BootTime=" + (node.bootTime() == null ? "None" : SlurmClock.scontrolTime(node.bootTime(), zone))
                + " SlurmdStartTime=None").newLine();
        r.add("LastBusyTime=Unknown ResumeAfterTime=None").newLine();
        r.add("CfgTRES=cpu=" + node.cpus() + ",mem=" + SlurmSizes.mebibytes(node.realMemoryMb())
                + ",billing=" + node.cpus() + gresTres(node.gres())).newLine();
        r.add("AllocTRES=" + allocTres(node)).newLine();
        r.add("CurrentWatts=0 AveWatts=0");
        if (!node.reason().isEmpty()) {
            r.newLine().add("Reason=" + node.reason());
        }
        return r.end();
    }

    private static String allocTres(NodeInfo node) {
        if (node.allocCpus() == 0 && node.allocMemoryMb() == 0) {
            return "";
        }
        String tres = "cpu=" + node.allocCpus();
        tres = node.allocMemoryMb() > 0 ? tres + ",mem=" + SlurmSizes.mebibytes(node.allocMemoryMb()) : tres;
        return tres + gresTres(node.allocGres());
    }

    /** ",gres/gpu=3,gres/gpu:a100=2,gres/gpu:v100=1": totals per name, then per typed name (as Slurm's TRES). */
    private static String gresTres(List<GresInfo> gres) {
        var byName = new TreeMap<String, Long>();
        var byType = new TreeMap<String, Long>();
        for (GresInfo g : gres) {
            byName.merge(g.name(), g.count(), Long::sum);
            if (!g.type().isEmpty()) {
                byType.merge(g.typedName(), g.count(), Long::sum);
            }
        }
        StringBuilder b = new StringBuilder();
        byName.forEach((k, v) -> b.append(",gres/").append(k).append('=').append(v));
        byType.forEach((k, v) -> b.append(",gres/").append(k).append('=').append(v));
        return b.toString();
    }
}
