package dev.gantry.scheduler.api;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.api.v1.SelectSettings;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;

/** Maps nodes, partitions, allocations and the whole cluster to the API. */
public final class ClusterProtos {
    private ClusterProtos() {}

    public static Node node(ClusterState state, NodeRecord n) {
        Node.Builder b = Node.newBuilder()
                .setName(n.name())
                .setState(switch (n.baseState()) {
                    case UNKNOWN -> NodeState.NODE_STATE_UNKNOWN;
                    case IDLE -> NodeState.NODE_STATE_IDLE;
                    case MIXED -> NodeState.NODE_STATE_MIXED;
                    case ALLOCATED -> NodeState.NODE_STATE_ALLOCATED;
                    case DOWN -> NodeState.NODE_STATE_DOWN;
                })
                .setDrain(n.drain())
                .setNotResponding(n.notResponding())
                .setReason(n.reason())
                .setCpus(n.config().cpus())
                .setSockets(n.config().sockets())
                .setCoresPerSocket(n.config().coresPerSocket())
                .setThreadsPerCore(n.config().threadsPerCore())
                .setRealMemoryMb(n.config().realMemoryMb())
                .setAllocCpus(n.allocCpus())
                .setAllocMemoryMb(n.allocMemoryMb())
                .setAgentAddress(n.agentAddress())
                .setWeight(n.config().weight())
                .addAllFeatures(n.config().features());
        for (PartitionConfig p : state.config().partitions()) {
            if (p.nodes().contains(n.name())) {
                b.addPartitions(p.name());
            }
        }
        if (n.lastSeen() != null) {
            b.setLastSeen(JobProtos.ts(n.lastSeen()));
        }
        if (n.bootTime() != null) {
            b.setBootTime(JobProtos.ts(n.bootTime()));
        }
        return b.build();
    }

    public static Partition partition(ClusterState state, PartitionConfig p) {
        int cpus = p.nodes().stream().map(state::node).mapToInt(n -> n.config().cpus()).sum();
        return Partition.newBuilder()
                .setName(p.name())
                .setState(PartitionState.valueOf("PARTITION_STATE_" + p.state()))
                .setIsDefault(state.config().defaultPartition().map(d -> d.name().equals(p.name())).orElse(false))
                .addAllNodes(p.nodes())
                .setNodeList(Hostlist.compress(p.nodes()))
                .setMaxTimeSeconds(p.maxTimeSeconds())
                .setDefaultTimeSeconds(p.defaultTimeSeconds())
                .setMaxNodes(p.maxNodes())
                .setMinNodes(p.minNodes())
                .setTotalCpus(cpus)
                .setPriorityTier(p.priorityTier())
                .build();
    }

    public static Allocation allocation(JobRecord j) {
        Allocation.Builder b = Allocation.newBuilder().setJobId(j.id()).setPartition(j.partition())
                .setSuspended(j.state() == dev.gantry.scheduler.model.JobState.SUSPENDED);
        for (NodeShare s : j.allocation()) {
            b.addNodes(NodeAllocation.newBuilder().setNode(s.node()).setCpus(s.cpus()).setMemoryMb(s.memoryMb()));
        }
        if (j.startTime() != null) {
            b.setStartTime(JobProtos.ts(j.startTime()));
            if (j.timeLimitSeconds() >= 0) {
                b.setEndTime(JobProtos.ts(j.startTime().plusSeconds(j.timeLimitSeconds())));
            }
        }
        return b.build();
    }

    public static ClusterSnapshot snapshot(ClusterState state) {
        ClusterSnapshot.Builder b = ClusterSnapshot.newBuilder()
                .setSelect(SelectSettings.newBuilder()
                        .setSelectType(state.config().get(Keys.SELECT_TYPE))
                        .setSelectTypeParameters(state.config().get(Keys.SELECT_TYPE_PARAMETERS)));
        state.nodes().forEach(n -> b.addNodes(node(state, n)));
        state.config().partitions().forEach(p -> b.addPartitions(partition(state, p)));
        for (JobRecord j : state.jobs()) {
            if (ClusterState.holds(j)) {
                b.addAllocations(allocation(j));
            }
        }
        return b.build();
    }
}
