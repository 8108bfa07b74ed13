package dev.gantry.cli.api;

import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.Partition;
import dev.gantry.cli.model.NodeInfo;
import dev.gantry.cli.model.NodeStatus;
import dev.gantry.cli.model.PartitionInfo;
import dev.gantry.cli.model.PartitionStatus;
import dev.gantry.common.config.OverSubscribe;
import java.util.Collection;
import java.util.List;

/** Maps the controller's nodes and partitions to {@link NodeInfo} and {@link PartitionInfo}. */
public final class ClusterInfos {

    private ClusterInfos() {}

    /** The nodes, in the same order. */
    public static List<NodeInfo> nodes(Collection<Node> nodes) {
        return nodes.stream().map(ClusterInfos::node).toList();
    }

    public static NodeInfo node(Node n) {
        return new NodeInfo(n.getName(), state(n.getState()), n.getDrain(), n.getNotResponding(), n.getReason(),
                n.getCpus(), n.getSockets(), n.getCoresPerSocket(), n.getThreadsPerCore(), n.getRealMemoryMb(),
                n.getAllocCpus(), n.getAllocMemoryMb(), n.getPartitionsList(), n.getAgentAddress(),
                ProtoTime.instant(n.getBootTime()), n.getWeight(), n.getFeaturesList(), JobInfos.gres(n.getGresList()),
                JobInfos.gres(n.getAllocGresList()));
    }

    /** The partitions, in the same (configuration) order. */
    public static List<PartitionInfo> partitions(Collection<Partition> partitions) {
        return partitions.stream().map(ClusterInfos::partition).toList();
    }

    public static PartitionInfo partition(Partition p) {
        return new PartitionInfo(p.getName(), state(p.getState()), p.getIsDefault(), p.getNodesList(), p.getNodeList(),
                p.getMaxTimeSeconds(), p.getDefaultTimeSeconds(), p.getMaxNodes(), p.getMinNodes(), p.getTotalCpus(),
                p.getPriorityTier(), p.getPriorityJobFactor(), overSubscribe(p.getOverSubscribe()),
                p.getOverSubscribeJobs(),
                new PartitionInfo.MemoryLimits(p.getDefMemPerCpuMb(), p.getDefMemPerNodeMb(), p.getMaxMemPerCpuMb(),
                        p.getMaxMemPerNodeMb()),
                p.getAllowAccountsList(), p.getAllowQosList(), p.getPreemptMode(), p.getEffectivePreemptMode(),
                p.getGraceTimeSeconds(), p.getExclusiveUser());
    }

    /** UNSPECIFIED and states this client does not know are UNKNOWN. */
    static NodeStatus state(dev.gantry.api.v1.NodeState state) {
        return switch (state) {
            case NODE_STATE_IDLE -> NodeStatus.IDLE;
            case NODE_STATE_MIXED -> NodeStatus.MIXED;
            case NODE_STATE_ALLOCATED -> NodeStatus.ALLOCATED;
            case NODE_STATE_DOWN -> NodeStatus.DOWN;
            case NODE_STATE_UNKNOWN, NODE_STATE_UNSPECIFIED, UNRECOGNIZED -> NodeStatus.UNKNOWN;
        };
    }

    /** UNSPECIFIED and states this client does not know are UNKNOWN. */
    static PartitionStatus state(dev.gantry.api.v1.PartitionState state) {
        return switch (state) {
            case PARTITION_STATE_UP -> PartitionStatus.UP;
            case PARTITION_STATE_DOWN -> PartitionStatus.DOWN;
            case PARTITION_STATE_DRAIN -> PartitionStatus.DRAIN;
            case PARTITION_STATE_INACTIVE -> PartitionStatus.INACTIVE;
            case PARTITION_STATE_UNSPECIFIED, UNRECOGNIZED -> PartitionStatus.UNKNOWN;
        };
    }

    /** UNSPECIFIED is NO, as the API documents; so is a value this client does not know. */
    static OverSubscribe.Kind overSubscribe(dev.gantry.api.v1.OverSubscribe o) {
        return switch (o) {
            case OVER_SUBSCRIBE_YES -> OverSubscribe.Kind.YES;
            case OVER_SUBSCRIBE_FORCE -> OverSubscribe.Kind.FORCE;
            case OVER_SUBSCRIBE_EXCLUSIVE -> OverSubscribe.Kind.EXCLUSIVE;
            case OVER_SUBSCRIBE_NO, OVER_SUBSCRIBE_UNSPECIFIED, UNRECOGNIZED -> OverSubscribe.Kind.NO;
        };
    }
}
