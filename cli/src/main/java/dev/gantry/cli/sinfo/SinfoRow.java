package dev.gantry.cli.sinfo;

import dev.gantry.cli.model.PartitionInfo;
import java.util.List;

/**
 * One sinfo line: the nodes of one partition that share a state (or, with -N, one node).
 *
 * @param partition the partition, or null for nodes in none ("n/a")
 * @param partitionIndex the partition's position in the configuration, for sinfo's "#P" order
 * @param condition the nodes' state; null when the partition has no nodes
 * @param nodes node names, in configuration order
 */
public record SinfoRow(PartitionInfo partition, int partitionIndex, NodeCondition condition, List<String> nodes) {

    public SinfoRow {
        nodes = List.copyOf(nodes);
    }
}
