package dev.gantry.scheduler.api;

import dev.gantry.api.v1.Allocation;
import dev.gantry.api.v1.ClusterSnapshot;
import dev.gantry.api.v1.GangParameters;
import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.NodeState;
import dev.gantry.api.v1.OverSubscribe;
import dev.gantry.api.v1.Partition;
import dev.gantry.api.v1.PartitionState;
import dev.gantry.api.v1.SelectSettings;
import dev.gantry.api.v1.Switch;
import dev.gantry.api.v1.Topology;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.config.TopologyConfig;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.scheduler.cycle.PlacementMapping;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.preempt.PreemptSettings;
import dev.gantry.scheduler.preempt.PreemptionPlanner;

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
                // a SUSPEND preemptor runs on CPUs its suspended victims still hold: they are in use once
                .setAllocCpus(Math.min(n.allocCpus(), n.config().cpus()))
                .setAllocMemoryMb(n.allocMemoryMb())
                .setAgentAddress(n.agentAddress())
                .setWeight(n.config().weight())
                .addAllFeatures(n.config().features());
        n.config().gres().forEach(g -> b.addGres(JobProtos.gres(g)));
        state.gresInUse(n.name()).forEach((key, count) -> {
            if (count > 0) {
                String[] nameType = key.split(":", 2);
                b.addAllocGres(Gres.newBuilder().setName(nameType[0]).setType(nameType.length > 1 ? nameType[1] : "")
                        .setCount(count));
            }
        });
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

    /** A partition as ListPartitions answers: with the PreemptMode in force ({@link #partition(ClusterState, PartitionConfig)}). */
    public static Partition partition(ClusterState state, PartitionConfig p, PreemptSettings preempt) {
        return partition(state, p).toBuilder()
                .setEffectivePreemptMode(preempt.partitionMode(p.name()).slurmName()).build();
    }

    /** A partition as the event stream's snapshot carries it: its own PreemptMode only. */
    public static Partition partition(ClusterState state, PartitionConfig p) {
        int cpus = p.nodes().stream().map(state::node).mapToInt(n -> n.config().cpus()).sum();
        MemoryLimits memory = PlacementMapping.memoryLimits(state.config(), p);
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
                .setOverSubscribe(overSubscribe(p.overSubscribe()))
                .setOverSubscribeJobs(overSubscribeJobs(p.overSubscribe()))
                .setDefMemPerCpuMb(memory.defPerCpuMb())
                .setDefMemPerNodeMb(memory.defPerNodeMb())
                .setMaxMemPerCpuMb(memory.maxPerCpuMb())
                .setMaxMemPerNodeMb(memory.maxPerNodeMb())
                .setPriorityJobFactor(p.priorityJobFactor())
                .addAllAllowAccounts(p.allowAccounts())
                .addAllAllowQos(p.allowQos())
                .setPreemptMode(p.preemptMode() == null ? "" : p.preemptMode().slurmName())
                .setGraceTimeSeconds(p.graceTimeSeconds())
                .setExclusiveUser(p.exclusiveUser())
                .build();
    }

    /** OverSubscribe=NO|EXCLUSIVE|YES[:n]|FORCE[:n], as parsed at load. */
    public static OverSubscribe overSubscribe(dev.gantry.common.config.OverSubscribe value) {
        return switch (value.kind()) {
            case YES -> OverSubscribe.OVER_SUBSCRIBE_YES;
            case FORCE -> OverSubscribe.OVER_SUBSCRIBE_FORCE;
            case EXCLUSIVE -> OverSubscribe.OVER_SUBSCRIBE_EXCLUSIVE;
            case NO -> OverSubscribe.OVER_SUBSCRIBE_NO;
        };
    }

    /** Jobs that may share one resource: n of YES:n/FORCE:n, Slurm's default 4 for YES/FORCE, else 1. */
    public static int overSubscribeJobs(dev.gantry.common.config.OverSubscribe value) {
        return value.jobs();
    }

    public static Allocation allocation(JobRecord j) {
        Allocation.Builder b = Allocation.newBuilder().setJobId(j.id()).setPartition(j.partition())
                .setSuspended(j.state() == dev.gantry.scheduler.model.JobState.SUSPENDED)
                .setExclusive(j.ask().selection().exclusive())
                .setUser(j.user() == null ? "" : j.user())
                .setExclusiveUser(PreemptionPlanner.askedExclusiveUser(j));
        if (j.state() == dev.gantry.scheduler.model.JobState.SUSPENDED && j.lastStateChange() != null) {
            b.setSuspendTime(JobProtos.ts(j.lastStateChange()));
        }
        for (NodeShare s : j.allocation()) {
            // an operator's suspension releases the CPUs and cores for other jobs; memory and GRES stay held
            b.addNodes(j.adminSuspended() ? JobProtos.allocation(s).toBuilder().setCpus(0).clearCoreIds().build()
                    : JobProtos.allocation(s));
        }
        if (j.startTime() != null) {
            b.setStartTime(JobProtos.ts(j.startTime()));
            if (j.timeLimitSeconds() >= 0) {
                b.setEndTime(JobProtos.ts(j.startTime().plusSeconds(j.timeLimitSeconds() + j.suspendedSeconds())));
            }
        }
        return b.build();
    }

    public static ClusterSnapshot snapshot(ClusterState state) {
        ClusterSnapshot.Builder b = ClusterSnapshot.newBuilder()
                .setSelect(SelectSettings.newBuilder()
                        .setSelectType(state.config().get(Keys.SELECT_TYPE))
                        .setSelectTypeParameters(state.config().get(Keys.SELECT_TYPE_PARAMETERS).configName()));
        state.nodes().forEach(n -> b.addNodes(node(state, n)));
        state.config().partitions().forEach(p -> b.addPartitions(partition(state, p)));
        for (JobRecord j : state.jobs()) {
            if (ClusterState.holds(j)) {
                b.addAllocations(allocation(j));
            }
        }
        b.setTopology(topology(state.config().topology()));
        b.setGang(GangParameters.newBuilder().setPreemptMode(state.config().get(Keys.PREEMPT_MODE).slurmName())
                .setTimeSliceSeconds((int) (long) state.config().get(Keys.SCHEDULER_TIME_SLICE)));
        return b.build();
    }

    public static Topology topology(TopologyConfig t) {
        Topology.Builder b = Topology.newBuilder();
        for (TopologyConfig.SwitchConfig s : t.switches()) {
            b.addSwitches(Switch.newBuilder().setName(s.name()).setParent(s.parent()).setLevel(s.level())
                    .addAllNodes(s.nodes()).addAllSwitches(s.children()));
        }
        return b.build();
    }
}
