package dev.gantry.scheduler.cycle;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.resources.GresSpec;
import dev.gantry.placement.Consumables;
import dev.gantry.placement.CpuLayout;
import dev.gantry.placement.GresPool;
import dev.gantry.placement.GresRequest;
import dev.gantry.placement.HeldShare;
import dev.gantry.placement.MemoryLimits;
import dev.gantry.placement.NodeUse;
import dev.gantry.placement.OfferedShare;
import dev.gantry.placement.Owner;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The controller's state in the placement core's terms, mapped as select-svc's replica receives it (ClusterProtos,
 * SelectRequests) so that both feed the core the same facts: a partition's memory limits (the global keys where it sets
 * none), a node's layout and GRES pools, the jobs holding a node, a job's owner. Pure.
 */
public final class PlacementMapping {
    private PlacementMapping() {}

    /** What SelectType and SelectTypeParameters make consumable. */
    public static Consumables consumables(ClusterConfig config) {
        return Consumables.of(Consumables.linear(config.get(Keys.SELECT_TYPE)),
                config.get(Keys.SELECT_TYPE_PARAMETERS).configName());
    }

    /** DefMemPerCPU, DefMemPerNode, MaxMemPerCPU and MaxMemPerNode of the partition, else the global keys. */
    public static MemoryLimits memoryLimits(ClusterConfig config, PartitionConfig p) {
        return new MemoryLimits(
                p.defMemPerCpuMb() > 0 ? p.defMemPerCpuMb() : config.get(Keys.DEF_MEM_PER_CPU),
                p.defMemPerNodeMb() > 0 ? p.defMemPerNodeMb() : config.get(Keys.DEF_MEM_PER_NODE),
                p.maxMemPerCpuMb() > 0 ? p.maxMemPerCpuMb() : config.get(Keys.MAX_MEM_PER_CPU),
                p.maxMemPerNodeMb() > 0 ? p.maxMemPerNodeMb() : config.get(Keys.MAX_MEM_PER_NODE));
    }

    /** The job's user, user-exclusive when it asked --exclusive=user or {@code partition} is ExclusiveUser=YES. */
    public static Owner owner(ClusterState state, JobRecord job, String partition) {
        return new Owner(job.user(), state.exclusiveUser(job, partition));
    }

    /** The job's --gres, per node. */
    public static List<GresRequest> gres(List<GresSpec> gres) {
        return gres.stream().map(g -> new GresRequest(g.name(), g.type(), Math.toIntExact(g.count()))).toList();
    }

    public static OfferedShare offered(NodeShare s) {
        return new OfferedShare(s.node(), s.cpus(), s.memoryMb(), s.coreIds(),
                s.gres().stream().map(g -> new OfferedShare.GresTaken(g.name(), g.type(), g.count())).toList());
    }

    /**
     * The node and what the jobs on it hold now. {@code suspending}: jobs the checked job suspends (their units and
     * place among the owners are its to take, their memory and GRES stay held). A job an operator suspended holds no
     * CPUs, as select-svc's replica is told (ClusterProtos.allocation).
     */
    public static NodeUse nodeUse(ClusterState state, NodeRecord node, Consumables consumables, Set<Long> suspending) {
        NodeConfig c = node.config();
        List<GresPool> pools = pools(c);
        NodeUse use = new NodeUse(node.name(), CpuLayout.of(c.cpus(), c.sockets(), c.coresPerSocket()), c.realMemoryMb(),
                pools, node.usable(), consumables);
        for (long id : new TreeSet<>(state.holders(node.name()))) {
            JobRecord j = state.job(id);
            if (j == null) {
                continue;
            }
            PartitionConfig p = state.partition(j.partition());
            boolean whole = j.ask().selection().exclusive() || (p != null && p.overSubscribe().wholeNodes());
            for (NodeShare s : j.allocation()) {
                if (!s.node().equals(node.name())) {
                    continue;
                }
                BitSet units = new BitSet();
                if (!j.adminSuspended()) {
                    s.coreIds().stream().filter(u -> u >= 0).forEach(units::set);
                }
                use.hold(new HeldShare(j.partition(), j.adminSuspended() ? 0 : s.cpus(), s.memoryMb(), units,
                        gresByPool(pools, s.gres()), whole, owner(state, j, j.partition()), suspending.contains(id)));
            }
        }
        return use;
    }

    /** The node's GRES= as pools, in config order. */
    private static List<GresPool> pools(NodeConfig c) {
        return c.gres().stream().filter(g -> !g.name().isBlank() && g.count() >= 0)
                .map(g -> new GresPool(g.name(), g.type(), (int) Math.min(Integer.MAX_VALUE, g.count()))).toList();
    }

    /** GRES held, counted against the first pool with the same name and type (as select-svc's replica counts them). */
    private static Map<Integer, Integer> gresByPool(List<GresPool> pools, List<GresGrant> held) {
        Map<Integer, Integer> byPool = new HashMap<>();
        for (GresGrant g : held) {
            for (int i = 0; i < pools.size(); i++) {
                if (pools.get(i).name().equals(g.name()) && pools.get(i).type().equals(g.type())) {
                    byPool.merge(i, (int) Math.min(Integer.MAX_VALUE, Math.max(0, g.count())), Integer::sum);
                    break;
                }
            }
        }
        return byPool;
    }
}
