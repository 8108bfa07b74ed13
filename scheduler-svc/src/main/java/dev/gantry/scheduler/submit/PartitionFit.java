package dev.gantry.scheduler.submit;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.resources.GresSpec;
import dev.gantry.scheduler.model.JobRequest;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether one partition could ever run a job, with an empty cluster: the job's CPUs, memory, GRES and features
 * per node against the partition's nodes and memory limits. The first limit that fails is named.
 *
 * <p>Memory follows Slurm (https://slurm.schedmd.com/slurm.conf.html#OPT_DefMemPerCPU): an explicit --mem or
 * --mem-per-cpu wins; otherwise the partition's DefMemPerCPU or DefMemPerNode, else the global ones. MaxMemPerNode
 * and MaxMemPerCPU come from the partition, else the global keys. Unlike Slurm, which lowers --mem-per-cpu to
 * MaxMemPerCPU and raises --cpus-per-task to match, a request above MaxMemPerCPU is refused here, naming the limit.
 * Pure.
 */
final class PartitionFit {
    private PartitionFit() {}

    /** What {@link #check} finds: the job's memory in the partition, or the first limit that fails. */
    sealed interface Verdict permits Memory, Misfit {}

    /** Memory per node or per CPU the job gets in this partition (exactly one non-zero, or both zero). */
    record Memory(long perNodeMb, long perCpuMb) implements Verdict {}

    /**
     * @param members the partition's nodes, in config order
     * @param tasksPerNode --ntasks-per-node, 0 = spread evenly over {@code minNodes}
     * @return the job's memory in this partition, or the {@link Misfit}
     */
    static Verdict check(ClusterConfig config, PartitionConfig p, List<NodeConfig> members, JobRequest request,
            NodeRequest nodeRequest, int minNodes, int maxNodes, int ntasks, int cpusPerTask, int tasksPerNode) {
        for (String n : nodeRequest.required()) {
            if (!p.nodes().contains(n)) {
                return new Misfit("nodelist", "node " + n + " is not in partition " + p.name());
            }
        }
        // Cost: the common job (no -w/-x, GRES or constraint) stops at the first nodes that can take it, so a
        // submission is not O(nodes); only a refusal, or a GRES, constraint or node list request, looks at them all.
        List<NodeConfig> candidates = nodeRequest.excluded().isEmpty() ? members
                : members.stream().filter(n -> !nodeRequest.excluded().contains(n.name())).toList();
        if (minNodes > candidates.size()) {
            int excluded = members.size() - candidates.size();
            return new Misfit("min_nodes", "min_nodes: " + minNodes + " nodes requested, partition " + p.name() + " has "
                    + members.size() + (excluded > 0 ? " (" + excluded + " excluded)" : ""));
        }
        int cpusNeeded = tasksPerNode > 0 ? Math.min(tasksPerNode, ntasks) * cpusPerTask
                : (ntasks * cpusPerTask + minNodes - 1) / minNodes;
        if (candidates.stream().noneMatch(n -> n.cpus() >= cpusNeeded)) {
            int maxCpus = candidates.stream().mapToInt(NodeConfig::cpus).max().orElse(0);
            String field = tasksPerNode > 0 ? "ntasks_per_node" : "cpus_per_task";
            return new Misfit(field, field + ": " + (tasksPerNode > 0 ? Math.min(tasksPerNode, ntasks) : ntasks) + " task(s) x "
                    + cpusPerTask + " CPU(s) on " + (tasksPerNode > 0 ? "each" : minNodes) + " node(s) needs " + cpusNeeded
                    + " CPUs per node; the largest node in partition " + p.name() + " has " + maxCpus);
        }
        Memory memory = memory(config, p, request, candidates);
        String memField = memory.perCpuMb() > 0 ? "mem_per_cpu_mb" : "mem_per_node_mb";
        long maxPerCpu = p.maxMemPerCpuMb() > 0 ? p.maxMemPerCpuMb() : config.get(Keys.MAX_MEM_PER_CPU);
        long maxPerNode = p.maxMemPerNodeMb() > 0 ? p.maxMemPerNodeMb() : config.get(Keys.MAX_MEM_PER_NODE);
        if (memory.perCpuMb() > 0 && maxPerCpu > 0 && memory.perCpuMb() > maxPerCpu) {
            return new Misfit(memField, memField + ": " + memory.perCpuMb() + "M per CPU exceeds partition " + p.name()
                    + " MaxMemPerCPU " + maxPerCpu + "M");
        }
        long memNeeded = memory.perCpuMb() > 0 ? memory.perCpuMb() * cpusNeeded : memory.perNodeMb();
        if (maxPerNode > 0 && memNeeded > maxPerNode) {
            return new Misfit(memField, memField + ": " + memNeeded + "M per node requested exceeds partition " + p.name()
                    + " MaxMemPerNode " + maxPerNode + "M");
        }
        final long mem = memNeeded;
        if (candidates.stream().noneMatch(n -> n.realMemoryMb() >= mem)) {
            long maxMem = candidates.stream().mapToLong(NodeConfig::realMemoryMb).max().orElse(0);
            return new Misfit(memField, memField + ": " + memNeeded + "M per node requested; the largest node in partition "
                    + p.name() + " has " + maxMem + "M");
        }
        for (GresSpec g : nodeRequest.gres()) {
            if (candidates.stream().anyMatch(n -> g.availableIn(n.gres()) >= Math.max(1, g.count()))) {
                continue;
            }
            long most = candidates.stream().mapToLong(n -> g.availableIn(n.gres())).max().orElse(0);
            if (most == 0) {
                return new Misfit("gres", "gres: unknown GRES " + label(g) + " in partition " + p.name() + ": no node has it");
            }
            if (most < g.count()) {
                return new Misfit("gres", "gres: " + g + " per node requested; the most any node of partition " + p.name()
                        + " has is " + most);
            }
        }
        if (nodeRequest.constraint().isPresent()) {
            var c = nodeRequest.constraint().get();
            List<Set<String>> features = candidates.stream().map(n -> (Set<String>) new HashSet<>(n.features())).toList();
            List<String> unknown = c.namesNotOn(features);
            if (!unknown.isEmpty()) {
                return new Misfit("constraint", "constraint: Invalid feature specification: unknown feature "
                        + String.join(", ", unknown) + " (no node of partition " + p.name() + " has it)");
            }
            if (features.stream().noneMatch(c::admits)) {
                return new Misfit("constraint", "constraint: no node of partition " + p.name() + " satisfies '"
                        + request.constraint().trim() + "'");
            }
        }
        for (String n : nodeRequest.required()) {
            if (candidates.stream().noneMatch(c -> c.name().equals(n) && c.cpus() >= cpusNeeded && c.realMemoryMb() >= mem
                    && nodeRequest.admits(c))) {
                return new Misfit("nodelist", "node " + n + " does not have the CPUs, memory, GRES and features requested");
            }
        }
        // nodes that can take the job, counted only as far as the checks below need (exact when below the cap)
        int cap = Math.max(minNodes, maxNodes);
        int able = 0;
        for (NodeConfig n : candidates) {
            if (n.cpus() >= cpusNeeded && n.realMemoryMb() >= mem && nodeRequest.admits(n) && ++able >= cap) {
                break;
            }
        }
        if (able < minNodes) {
            return new Misfit("min_nodes", "min_nodes: " + minNodes + " nodes requested; only " + able
                    + " node(s) of partition " + p.name() + " have the CPUs, memory, GRES and features requested");
        }
        if (tasksPerNode > 0 && (long) tasksPerNode * Math.min(maxNodes, able) < ntasks) {
            return new Misfit("ntasks_per_node", "ntasks_per_node: " + ntasks + " tasks at " + tasksPerNode
                    + " per node need " + ((ntasks + tasksPerNode - 1) / tasksPerNode) + " nodes; at most "
                    + Math.min(maxNodes, able) + " can be used in partition " + p.name());
        }
        return memory;
    }

    /** Slurm's defaulting order: explicit, partition DefMemPerCPU/DefMemPerNode, global DefMemPerCPU/DefMemPerNode. */
    static Memory memory(ClusterConfig config, PartitionConfig p, JobRequest request, List<NodeConfig> candidates) {
        if (request.memPerNodeMb() != null) {
            long v = request.memPerNodeMb();
            // --mem=0: all of a node's memory (the smallest candidate's, so any node can take it)
            return new Memory(v == 0 ? candidates.stream().mapToLong(NodeConfig::realMemoryMb).min().orElse(0) : v, 0);
        }
        if (request.memPerCpuMb() != null) {
            return new Memory(0, request.memPerCpuMb());
        }
        if (p.defMemPerCpuMb() > 0) {
            return new Memory(0, p.defMemPerCpuMb());
        }
        if (p.defMemPerNodeMb() > 0) {
            return new Memory(p.defMemPerNodeMb(), 0);
        }
        if (config.get(Keys.DEF_MEM_PER_CPU) > 0) {
            return new Memory(0, config.get(Keys.DEF_MEM_PER_CPU));
        }
        return new Memory(config.get(Keys.DEF_MEM_PER_NODE), 0);
    }

    private static String label(GresSpec g) {
        return g.type().isEmpty() ? g.name() : g.name() + ":" + g.type();
    }
}
