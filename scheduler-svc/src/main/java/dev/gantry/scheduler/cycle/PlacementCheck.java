package dev.gantry.scheduler.cycle;

import dev.gantry.common.config.Keys;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.resources.FeatureConstraint;
import dev.gantry.common.resources.GresSpec;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.NodeShare;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Re-checks a placement proposed by select-svc against the controller's current state before acting on it
 * (propose, then validate: select-svc's replica may be behind). Checks what can be over-allocated or break the
 * request: node count, partition membership, CPUs (times the partition's OverSubscribe job count), memory when
 * SelectTypeParameters track it, GRES counts, core ids, --exclusive, user exclusivity (no node of another user's job
 * where either is user-exclusive: --exclusive=user, ExclusiveUser=YES), -w/-x and node features. Not re-checked:
 * --contiguous, the matching-OR form of --constraint and topology (they cannot over-allocate). Pure.
 */
public final class PlacementCheck {
    private PlacementCheck() {}

    /** Empty when the job can start there now; otherwise why not. */
    public static Optional<String> check(ClusterState state, JobRecord job, String partitionName, List<NodeShare> shares) {
        return check(state, job, partitionName, shares, List.of());
    }

    /**
     * The same for a preemptor placed over the jobs it suspends (PreemptMode=SUSPEND,GANG, select-svc's
     * PlacePreempting with them suspendable): their CPUs and cores count as free, their memory and GRES as held — a
     * suspended job stays in memory (https://slurm.schedmd.com/preempt.html). Precondition: {@code suspended} hold
     * resources in {@code state}, which counts their CPUs and cores until they end, unless an operator suspended them.
     */
    public static Optional<String> check(ClusterState state, JobRecord job, String partitionName, List<NodeShare> shares,
            Collection<JobRecord> suspended) {
        Overlay overlay = Overlay.of(state, suspended);
        if (job == null || job.state() != JobState.PENDING || job.completing()) {
            return Optional.of("job is no longer pending");
        }
        if (!job.partitions().contains(partitionName)) {
            return Optional.of("partition " + partitionName + " was not requested");
        }
        PartitionConfig partition = state.partition(partitionName);
        if (partition == null || !partition.state().startsJobs()) {
            return Optional.of("partition " + partitionName + " is not up");
        }
        int n = shares.size();
        if (n < job.ask().minNodes() || n > job.ask().maxNodes()) {
            return Optional.of(n + " nodes is outside " + job.ask().minNodes() + "-" + job.ask().maxNodes());
        }
        NodeSelection selection = job.ask().selection();
        boolean memoryTracked = state.config().get(Keys.SELECT_TYPE_PARAMETERS).tracksMemory();
        boolean wholeNodes = selection.exclusive() || partition.overSubscribe().wholeNodes();
        int sharing = partition.overSubscribe().maxShare(selection.oversubscribe());
        Optional<FeatureConstraint> constraint = selection.constraint().isEmpty() ? Optional.empty()
                : Optional.of(FeatureConstraint.parse(selection.constraint()));
        boolean exclusiveUser = state.exclusiveUser(job, partitionName);
        int cpusGiven = 0;
        Set<String> seen = new HashSet<>();
        for (NodeShare s : shares) {
            if (!seen.add(s.node())) {
                return Optional.of("node " + s.node() + " given twice");
            }
            if (!partition.nodes().contains(s.node())) {
                return Optional.of("node " + s.node() + " is not in partition " + partitionName);
            }
            if (selection.excludedNodes().contains(s.node())) {
                return Optional.of("node " + s.node() + " is excluded");
            }
            NodeRecord node = state.node(s.node());
            if (node == null || !node.usable()) {
                return Optional.of("node " + s.node() + " is not usable");
            }
            int allocCpus = node.allocCpus() - overlay.cpus.getOrDefault(s.node(), 0);
            if (wholeNodes && allocCpus > 0) {
                return Optional.of("node " + s.node() + " is not idle; the job wants whole nodes");
            }
            Optional<String> other = otherUser(state, s.node(), job.user() == null ? "" : job.user(), exclusiveUser, overlay);
            if (other.isPresent()) {
                return other;
            }
            int capacity = node.config().cpus() * sharing - allocCpus;
            if (s.cpus() < 1 || s.cpus() > capacity) {
                return Optional.of("node " + s.node() + " has " + Math.max(0, capacity) + " free CPUs, not " + s.cpus());
            }
            if (memoryTracked && (s.memoryMb() < job.ask().memoryOn(s.cpus()) || s.memoryMb() > node.freeMemoryMb())) {
                return Optional.of("node " + s.node() + " has " + node.freeMemoryMb() + "M free, not " + s.memoryMb()
                        + "M (" + job.ask().memoryOn(s.cpus()) + "M needed)");
            }
            Optional<String> cores = cores(state, node.config(), s, sharing, overlay);
            if (cores.isPresent()) {
                return cores;
            }
            Optional<String> gres = gres(state, node.config(), s, selection.gres());
            if (gres.isPresent()) {
                return gres;
            }
            if (constraint.isPresent() && !constraint.get().admits(new HashSet<>(node.config().features()))) {
                return Optional.of("node " + s.node() + " does not have the features " + selection.constraint());
            }
            cpusGiven += s.cpus();
        }
        for (String required : selection.requiredNodes()) {
            if (!seen.contains(required)) {
                return Optional.of("required node " + required + " is not in the placement");
            }
        }
        if (cpusGiven < job.ask().totalCpus()) {
            return Optional.of(cpusGiven + " CPUs given, " + job.ask().totalCpus() + " needed");
        }
        return Optional.empty();
    }

    /**
     * Why a job of {@code user} may not share {@code node}: another user's job holds part of it and either is
     * user-exclusive. The jobs a preemptor suspends do not count (the preemption rules already let it take their place).
     */
    /** {jobs, user-exclusive jobs} of a user with none on the node; never written. */
    private static final int[] NO_JOBS = new int[2];

    private static Optional<String> otherUser(ClusterState state, String node, String user, boolean exclusiveUser,
                                              Overlay overlay) {
        for (Map.Entry<String, int[]> e : state.owners(node).entrySet()) {
            if (e.getKey().equals(user)) {
                continue;
            }
            int[] gone = overlay.owners.getOrDefault(node, Map.of()).getOrDefault(e.getKey(), NO_JOBS);
            int jobs = e.getValue()[0] - gone[0];
            int exclusive = e.getValue()[1] - gone[1];
            if (jobs > 0 && (exclusiveUser || exclusive > 0)) {
                return Optional.of("node " + node + " runs another user's job and "
                        + (exclusiveUser ? "the job is" : "that job is") + " user-exclusive (--exclusive=user or ExclusiveUser=YES)");
            }
        }
        return Optional.empty();
    }

    /** Named cores: distinct, on the node, enough for the CPUs, and each held by fewer than {@code sharing} jobs. */
    private static Optional<String> cores(ClusterState state, NodeConfig node, NodeShare s, int sharing, Overlay overlay) {
        if (s.coreIds().isEmpty()) {
            return Optional.empty();
        }
        int cores = node.sockets() * node.coresPerSocket();
        Set<Integer> distinct = new HashSet<>();
        for (int core : s.coreIds()) {
            if (core < 0 || core >= cores || !distinct.add(core)) {
                return Optional.of("node " + s.node() + ": core " + core + " is not a core of the node or is given twice");
            }
            if (state.coreUse(s.node(), core) - overlay.coreUse(s.node(), core) >= sharing) {
                return Optional.of("node " + s.node() + ": core " + core + " is already allocated");
            }
        }
        if ((long) distinct.size() * node.threadsPerCore() < s.cpus()) {
            return Optional.of("node " + s.node() + ": " + distinct.size() + " core(s) cannot give " + s.cpus() + " CPUs");
        }
        return Optional.empty();
    }

    /**
     * CPUs and cores of the jobs a preemptor suspends, per node: free for it; and whose they are (per node and user:
     * {jobs, user-exclusive jobs}), not in its way.
     */
    private record Overlay(Map<String, Integer> cpus, Map<String, Map<Integer, Integer>> cores,
                           Map<String, Map<String, int[]>> owners) {

        static Overlay of(ClusterState state, Collection<JobRecord> suspended) {
            Map<String, Integer> cpus = new HashMap<>();
            Map<String, Map<Integer, Integer>> cores = new HashMap<>();
            Map<String, Map<String, int[]>> owners = new HashMap<>();
            for (JobRecord j : suspended) {
                boolean exclusive = state.exclusiveUser(j, j.partition());
                for (String node : new HashSet<>(j.nodeNames())) {
                    int[] count = owners.computeIfAbsent(node, n -> new HashMap<>())
                            .computeIfAbsent(j.user() == null ? "" : j.user(), u -> new int[2]);
                    count[0]++;
                    count[1] += exclusive ? 1 : 0;
                }
                if (j.adminSuspended()) {
                    continue; // an operator's suspension already gave its CPUs back
                }
                for (NodeShare s : j.allocation()) {
                    cpus.merge(s.node(), s.cpus(), Integer::sum);
                    s.coreIds().forEach(c -> cores.computeIfAbsent(s.node(), n -> new HashMap<>()).merge(c, 1, Integer::sum));
                }
            }
            return new Overlay(cpus, cores, owners);
        }

        int coreUse(String node, int core) {
            return cores.getOrDefault(node, Map.of()).getOrDefault(core, 0);
        }
    }

    /** Granted GRES exist on the node and are free; every requested GRES is granted in full. */
    private static Optional<String> gres(ClusterState state, NodeConfig node, NodeShare s, List<GresSpec> requested) {
        var inUse = state.gresInUse(s.node());
        for (GresGrant g : s.gres()) {
            long configured = node.gres().stream().filter(c -> c.name().equals(g.name()) && c.type().equals(g.type()))
                    .mapToLong(GresSpec::count).sum();
            long free = configured - inUse.getOrDefault(g.key(), 0L);
            if (g.count() < 0 || g.count() > free) {
                return Optional.of("node " + s.node() + " has " + Math.max(0, free) + " free " + g.key() + ", not " + g.count());
            }
        }
        for (GresSpec want : requested) {
            long granted = s.gres().stream().filter(g -> want.name().equals(g.name())
                    && (want.type().isEmpty() || want.type().equals(g.type()))).mapToLong(GresGrant::count).sum();
            if (granted < want.count()) {
                return Optional.of("node " + s.node() + " grants " + granted + " of " + want);
            }
        }
        return Optional.empty();
    }
}
