package dev.gantry.cli.sinfo;

import dev.gantry.cli.model.NodeInfo;
import dev.gantry.cli.model.NodeStatus;
import dev.gantry.cli.model.PartitionInfo;
import dev.gantry.cli.scontrol.PartitionLayout;
import dev.gantry.cli.text.Column;
import dev.gantry.cli.text.NaturalOrder;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.units.SlurmTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * sinfo's two standard reports (https://slurm.schedmd.com/sinfo.html#OPT_format):
 * partition-oriented "%#P %.5a %.10l %.6D %.6t %N", one line per partition and node state, in
 * configuration order then state (Slurm's "#P,-t"); and node-oriented (-N) "%#N %.6D %#P %6t", one line per
 * node and partition, by node name. "#" widths are the longest value printed, at least 9.
 *
 * @param header whether to print the header line
 * @param nodeOriented -N
 * @param partitionNames -p: only these partitions (empty: all)
 */
public record SinfoReport(boolean header, boolean nodeOriented, Set<String> partitionNames) {

    private static final int MIN_FIELD = 9;

    public SinfoReport {
        partitionNames = Set.copyOf(partitionNames);
    }

    /** The report's lines (without newlines). Partitions are given in configuration order. */
    public List<String> lines(List<PartitionInfo> partitions, List<NodeInfo> nodes) {
        List<SinfoRow> rows = nodeOriented ? nodeRows(partitions, nodes) : partitionRows(partitions, nodes);
        return nodeOriented ? renderNodes(rows) : renderPartitions(rows);
    }

    /** Rows grouping each partition's nodes by state; a partition without nodes gets one empty row. */
    List<SinfoRow> partitionRows(List<PartitionInfo> partitions, List<NodeInfo> nodes) {
        Map<String, NodeInfo> byName = new LinkedHashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        List<SinfoRow> rows = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            PartitionInfo p = partitions.get(i);
            if (!selected(p)) {
                continue;
            }
            Map<NodeCondition, List<String>> groups = new LinkedHashMap<>();
            for (String name : p.nodes()) {
                NodeInfo node = byName.get(name);
                NodeCondition condition = node == null
                        ? new NodeCondition(NodeStatus.UNKNOWN, false, false)
                        : NodeCondition.of(node);
                groups.computeIfAbsent(condition, c -> new ArrayList<>()).add(name);
            }
            if (groups.isEmpty()) {
                rows.add(new SinfoRow(p, i, null, List.of()));
            }
            for (Map.Entry<NodeCondition, List<String>> g : groups.entrySet()) {
                rows.add(new SinfoRow(p, i, g.getKey(), g.getValue()));
            }
        }
        rows.sort(Comparator.comparingInt(SinfoRow::partitionIndex)
                .thenComparing(r -> r.condition() == null ? -1 : r.condition().slurmCode(), Comparator.reverseOrder()));
        return rows;
    }

    /** One row per node and partition it is in (nodes in no partition show partition "n/a"), by node name. */
    List<SinfoRow> nodeRows(List<PartitionInfo> partitions, List<NodeInfo> nodes) {
        List<SinfoRow> rows = new ArrayList<>();
        for (NodeInfo node : nodes) {
            boolean placed = false;
            for (int i = 0; i < partitions.size(); i++) {
                PartitionInfo p = partitions.get(i);
                if (p.nodes().contains(node.name())) {
                    placed = true;
                    if (selected(p)) {
                        rows.add(new SinfoRow(p, i, NodeCondition.of(node), List.of(node.name())));
                    }
                }
            }
            if (!placed && partitionNames.isEmpty()) {
                rows.add(new SinfoRow(null, Integer.MAX_VALUE, NodeCondition.of(node), List.of(node.name())));
            }
        }
        rows.sort(Comparator.comparing((SinfoRow r) -> r.nodes().get(0), NaturalOrder.INSTANCE)
                .thenComparingInt(SinfoRow::partitionIndex));
        return rows;
    }

    private boolean selected(PartitionInfo p) {
        return partitionNames.isEmpty() || partitionNames.contains(p.name());
    }

    private List<String> renderPartitions(List<SinfoRow> rows) {
        Column part = new Column(partitionWidth(rows), false);
        Column avail = new Column(5, true);
        Column limit = new Column(10, true);
        Column count = new Column(6, true);
        Column state = new Column(6, true);
        Column list = new Column(0, false);
        List<String> out = new ArrayList<>();
        if (header) {
            out.add(part.render("PARTITION", true) + " " + avail.render("AVAIL", true) + " "
                    + limit.render("TIMELIMIT", true) + " " + count.render("NODES", true) + " "
                    + state.render("STATE", true) + " " + list.render("NODELIST", false));
        }
        for (SinfoRow r : rows) {
            out.add(part.render(partitionName(r.partition(), part.width()), true) + " "
                    + avail.render(availability(r.partition()), true) + " "
                    + limit.render(timeLimit(r.partition()), true) + " "
                    + count.render(Integer.toString(r.nodes().size()), true) + " "
                    + state.render(r.condition() == null ? "n/a" : r.condition().compact(), true) + " "
                    + list.render(Hostlist.compress(r.nodes()), true));
        }
        return out;
    }

    private List<String> renderNodes(List<SinfoRow> rows) {
        int nodeWidth = MIN_FIELD;
        for (SinfoRow r : rows) {
            nodeWidth = Math.max(nodeWidth, r.nodes().get(0).length());
        }
        Column list = new Column(nodeWidth, false);
        Column count = new Column(6, true);
        Column part = new Column(partitionWidth(rows), false);
        Column state = new Column(6, false);
        List<String> out = new ArrayList<>();
        if (header) {
            out.add(list.render("NODELIST", false) + " " + count.render("NODES", true) + " "
                    + part.render("PARTITION", true) + " " + state.render("STATE", true));
        }
        for (SinfoRow r : rows) {
            out.add(list.render(r.nodes().get(0), true) + " " + count.render("1", true) + " "
                    + part.render(partitionName(r.partition(), part.width()), true) + " "
                    + state.render(r.condition().compact(), true));
        }
        return out;
    }

    private static int partitionWidth(List<SinfoRow> rows) {
        int width = MIN_FIELD;
        for (SinfoRow r : rows) {
            if (r.partition() != null) {
                width = Math.max(width, r.partition().name().length() + (r.partition().isDefault() ? 1 : 0));
            }
        }
        return width;
    }

    /** The partition name, with '*' after the default one (replacing the last character when it does not fit). */
    static String partitionName(PartitionInfo p, int width) {
        if (p == null) {
            return "n/a";
        }
        String name = p.name();
        if (!p.isDefault()) {
            return name;
        }
        if (width == 0 || name.length() < width) {
            return name + "*";
        }
        return name.substring(0, width - 1) + "*";
    }

    static String availability(PartitionInfo p) {
        if (p == null) {
            return "n/a";
        }
        return PartitionLayout.state(p).toLowerCase(Locale.ROOT);
    }

    /** TIMELIMIT: "infinite", else M:SS, H:MM:SS or D-HH:MM:SS. */
    static String timeLimit(PartitionInfo p) {
        if (p == null) {
            return "n/a";
        }
        long max = p.maxTimeSeconds();
        return max < 0 ? "infinite" : SlurmTime.formatElapsed(max);
    }
}
