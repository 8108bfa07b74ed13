package dev.gantry.scheduler.cycle;

import dev.gantry.common.config.PartitionConfig;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Re-checks a placement proposed by select-svc against the controller's current state before acting on it
 * (propose, then validate: select-svc's replica may be behind). Pure.
 */
public final class PlacementCheck {
    private PlacementCheck() {}

    /** Empty when the job can start there now; otherwise why not. */
    public static Optional<String> check(ClusterState state, JobRecord job, String partitionName, List<NodeShare> shares) {
        if (job == null || job.state() != JobState.PENDING || job.completing()) {
            return Optional.of("job is no longer pending");
        }
        if (!job.partitions().contains(partitionName)) {
            return Optional.of("partition " + partitionName + " was not requested");
        }
        PartitionConfig partition = state.partition(partitionName);
        if (partition == null || !partition.state().equals("UP") && !partition.state().equals("DRAIN")) {
            return Optional.of("partition " + partitionName + " is not up");
        }
        int n = shares.size();
        if (n < job.ask().minNodes() || n > job.ask().maxNodes()) {
            return Optional.of(n + " nodes is outside " + job.ask().minNodes() + "-" + job.ask().maxNodes());
        }
        int cpusGiven = 0;
        Set<String> seen = new HashSet<>();
        for (NodeShare s : shares) {
            if (!seen.add(s.node())) {
                return Optional.of("node " + s.node() + " given twice");
            }
            if (!partition.nodes().contains(s.node())) {
                return Optional.of("node " + s.node() + " is not in partition " + partitionName);
            }
            NodeRecord node = state.node(s.node());
            if (node == null || !node.usable()) {
                return Optional.of("node " + s.node() + " is not usable");
            }
            if (s.cpus() < 1 || s.cpus() > node.freeCpus()) {
                return Optional.of("node " + s.node() + " has " + node.freeCpus() + " free CPUs, not " + s.cpus());
            }
            if (s.memoryMb() < job.ask().memPerNodeMb() || s.memoryMb() > node.freeMemoryMb()) {
                return Optional.of("node " + s.node() + " has " + node.freeMemoryMb() + "M free, not " + s.memoryMb() + "M");
            }
            cpusGiven += s.cpus();
        }
        if (cpusGiven < job.ask().totalCpus()) {
            return Optional.of(cpusGiven + " CPUs given, " + job.ask().totalCpus() + " needed");
        }
        return Optional.empty();
    }
}
