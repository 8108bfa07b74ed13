package dev.gantry.scheduler.submit;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.units.SlurmTime;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.ResourceAsk;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a submission against the cluster config and applies Slurm's defaults, before anything is stored.
 * A job that no partition could ever run is refused here (Slurm's EnforcePartLimits=ANY: it is enough that
 * one requested partition can take it), with a message naming the field and the limit. Pure.
 */
public final class SubmissionPolicy {

    /** Slurm's default max_script_size. */
    public static final int MAX_SCRIPT_BYTES = 4 * 1024 * 1024;
    /** Upper bound on the submitted environment, so one job cannot bloat the store. */
    public static final int MAX_ENVIRONMENT_BYTES = 1024 * 1024;
    public static final int MAX_NAME_LENGTH = 1024;

    private final ClusterConfig config;
    /** Node names, and each partition's nodes: looked up once, as a submission must not cost O(nodes²). */
    private final java.util.Set<String> nodeNames;
    private final java.util.Map<String, List<dev.gantry.common.config.NodeConfig>> members = new java.util.HashMap<>();

    public SubmissionPolicy(ClusterConfig config) {
        this.config = config;
        java.util.Map<String, dev.gantry.common.config.NodeConfig> byName = new java.util.HashMap<>();
        config.nodes().forEach(n -> byName.put(n.name(), n));
        this.nodeNames = java.util.Set.copyOf(byName.keySet());
        for (PartitionConfig p : config.partitions()) {
            members.put(p.name(), p.nodes().stream().map(byName::get).toList());
        }
    }

    /** The outcome of a check: accepted with resolved values, or rejected with the field at fault. */
    public sealed interface Decision permits Accepted, Rejected {}

    /**
     * @param partitions the requested partitions (or the default one), in order
     * @param timeLimitSeconds the effective limit, -1 = UNLIMITED
     */
    public record Accepted(String name, List<String> partitions, ResourceAsk ask, long timeLimitSeconds)
            implements Decision {}

    /** @param field the JobSpec field at fault; message already starts with it */
    public record Rejected(String field, String message) implements Decision {}

    public Decision check(JobSpec spec) {
        // --- the request's own shape
        if (spec.getScript().isEmpty()) {
            return reject("script", "is empty; a batch script is required");
        }
        if (!spec.getScript().startsWith("#!")) {
            return reject("script", "must start with #! followed by the path to an interpreter");
        }
        int scriptBytes = spec.getScript().getBytes(StandardCharsets.UTF_8).length;
        if (scriptBytes > MAX_SCRIPT_BYTES) {
            return reject("script", scriptBytes + " bytes exceeds the limit of " + MAX_SCRIPT_BYTES + " bytes");
        }
        long envBytes = spec.getEnvironmentMap().entrySet().stream()
                .mapToLong(e -> e.getKey().length() + e.getValue().length() + 2L).sum();
        if (envBytes > MAX_ENVIRONMENT_BYTES) {
            return reject("environment", envBytes + " bytes exceeds the limit of " + MAX_ENVIRONMENT_BYTES + " bytes");
        }
        if (spec.getUser().isBlank()) {
            return reject("user", "is required");
        }
        if (spec.getName().length() > MAX_NAME_LENGTH) {
            return reject("name", "is " + spec.getName().length() + " characters; the limit is " + MAX_NAME_LENGTH);
        }
        if (!spec.getWorkDir().startsWith("/")) {
            return reject("work_dir", "must be an absolute path, got '" + spec.getWorkDir() + "'");
        }
        if (spec.hasMinNodes() && spec.getMinNodes() < 1) {
            return reject("min_nodes", "must be at least 1, got " + spec.getMinNodes());
        }
        if (spec.hasMaxNodes() && spec.getMaxNodes() < 1) {
            return reject("max_nodes", "must be at least 1, got " + spec.getMaxNodes());
        }
        if (spec.hasNtasks() && spec.getNtasks() < 1) {
            return reject("ntasks", "must be at least 1, got " + spec.getNtasks());
        }
        if (spec.hasCpusPerTask() && spec.getCpusPerTask() < 1) {
            return reject("cpus_per_task", "must be at least 1, got " + spec.getCpusPerTask());
        }
        if (spec.hasMemPerNodeMb() && spec.getMemPerNodeMb() < 0) {
            return reject("mem_per_node_mb", "must not be negative, got " + spec.getMemPerNodeMb());
        }
        if (spec.hasNtasksPerNode() && spec.getNtasksPerNode() < 1) {
            return reject("ntasks_per_node", "must be at least 1, got " + spec.getNtasksPerNode());
        }
        if (spec.hasMemPerCpuMb() && spec.getMemPerCpuMb() < 1) {
            return reject("mem_per_cpu_mb", "must be at least 1, got " + spec.getMemPerCpuMb());
        }
        if (spec.hasMemPerCpuMb() && spec.hasMemPerNodeMb()) {
            return reject("mem_per_cpu_mb", "not together with mem_per_node_mb (--mem and --mem-per-cpu are mutually exclusive)");
        }
        if (spec.hasTimeLimitSeconds() && spec.getTimeLimitSeconds() < 0 && spec.getTimeLimitSeconds() != SlurmTime.UNLIMITED) {
            return reject("time_limit_seconds", "must be positive or -1 (UNLIMITED), got " + spec.getTimeLimitSeconds());
        }
        NodeRequest nodeRequest;
        switch (NodeRequest.parse(spec, config, nodeNames)) {
            case Misfit m -> {
                return reject(m.field(), m.message());
            }
            case NodeRequest r -> nodeRequest = r;
        }
        int tasksPerNode = spec.hasNtasksPerNode() ? spec.getNtasksPerNode() : 0;
        // Slurm: -w with more nodes than -N raises the node count; -n with --ntasks-per-node implies the nodes needed
        int impliedNodes = Math.max(1, nodeRequest.required().size());
        if (tasksPerNode > 0 && spec.hasNtasks()) {
            impliedNodes = Math.max(impliedNodes, (spec.getNtasks() + tasksPerNode - 1) / tasksPerNode);
        }
        int minNodes = spec.hasMinNodes() ? Math.max(spec.getMinNodes(), nodeRequest.required().size()) : impliedNodes;
        int maxNodes = spec.hasMaxNodes() ? spec.getMaxNodes() : minNodes;
        if (spec.hasMaxNodes() && maxNodes < nodeRequest.required().size()) {
            return reject("nodelist", nodeRequest.required().size() + " nodes listed, more than max_nodes " + maxNodes);
        }
        if (maxNodes < minNodes) {
            return reject("max_nodes", maxNodes + " is less than min_nodes " + minNodes);
        }
        int ntasks = spec.hasNtasks() ? spec.getNtasks() : tasksPerNode > 0 ? tasksPerNode * minNodes : minNodes;
        if (ntasks < minNodes) {
            return reject("ntasks", ntasks + " task(s) cannot span min_nodes " + minNodes + " nodes");
        }
        int cpusPerTask = spec.hasCpusPerTask() ? spec.getCpusPerTask() : 1;

        // --- the partitions
        List<String> names = new ArrayList<>();
        for (String p : spec.getPartitionsList()) {
            String t = p.trim();
            if (t.isEmpty()) {
                return reject("partitions", "has an empty partition name");
            }
            if (!names.contains(t)) {
                names.add(t);
            }
        }
        if (names.isEmpty()) {
            var def = config.defaultPartition();
            if (def.isEmpty()) {
                return reject("partitions", "none given and the cluster has no default partition");
            }
            names.add(def.get().name());
        }
        List<PartitionConfig> partitions = new ArrayList<>();
        for (String n : names) {
            var p = config.partition(n);
            if (p.isEmpty()) {
                return reject("partitions", "invalid partition name specified: " + n + " (known: "
                        + String.join(",", config.partitions().stream().map(PartitionConfig::name).toList()) + ")");
            }
            partitions.add(p.get());
        }

        // --- fit: some requested partition must be able to run the job at all
        String firstProblem = null;
        String firstField = null;
        Long chosenLimit = null;
        PartitionFit.Memory chosenMem = null;
        search:
        for (PartitionConfig p : partitions) {
            Misfit early = misfit(p, spec, minNodes);
            PartitionFit.Verdict fit = early != null ? early : PartitionFit.check(config, p, members.get(p.name()), spec,
                    nodeRequest, minNodes, maxNodes, ntasks, cpusPerTask, tasksPerNode);
            switch (fit) {
                case PartitionFit.Memory mem -> {
                    chosenLimit = timeLimit(p, spec);
                    chosenMem = mem;
                    break search;
                }
                case Misfit m -> {
                    if (firstProblem == null) {
                        firstProblem = m.message();
                        firstField = m.field();
                    }
                }
            }
        }
        if (chosenLimit == null) {
            return reject(firstField, firstProblem);
        }
        long limit = spec.hasTimeLimitSeconds() ? normalizeLimit(spec.getTimeLimitSeconds()) : chosenLimit;
        String name = spec.getName().isBlank() ? "sbatch" : spec.getName();
        NodeSelection selection = new NodeSelection(nodeRequest.gres(), spec.getExclusive(), spec.getConstraint().trim(),
                nodeRequest.required(), nodeRequest.excluded(), spec.getContiguous(), spec.getOversubscribe());
        return new Accepted(name, names, new ResourceAsk(minNodes, maxNodes, ntasks, cpusPerTask, chosenMem.perNodeMb(),
                tasksPerNode, chosenMem.perCpuMb(), selection), limit);
    }

    /** The partition's state, node count and time limit; null when they allow the job. */
    private Misfit misfit(PartitionConfig p, JobSpec spec, int minNodes) {
        if (!p.state().takesJobs()) {
            return new Misfit("partitions", "partitions: partition " + p.name() + " is " + p.state()
                    + " and accepts no new jobs");
        }
        int nodeCount = p.nodes().size();
        if (minNodes > nodeCount) {
            return new Misfit("min_nodes", "min_nodes: " + minNodes + " nodes requested, partition " + p.name()
                    + " has " + nodeCount);
        }
        if (spec.hasTimeLimitSeconds()) {
            long requested = normalizeLimit(spec.getTimeLimitSeconds());
            if (p.maxTimeSeconds() >= 0 && (requested < 0 || requested > p.maxTimeSeconds())) {
                return new Misfit("time_limit_seconds", "time_limit_seconds: " + SlurmTime.formatLimit(requested)
                        + " exceeds partition " + p.name() + " MaxTime " + SlurmTime.formatLimit(p.maxTimeSeconds()));
            }
        }
        return null;
    }

    /** Slurm: a time limit of 0 means no limit. */
    private static long normalizeLimit(long seconds) {
        return seconds == 0 ? SlurmTime.UNLIMITED : seconds;
    }

    private static long timeLimit(PartitionConfig p, JobSpec spec) {
        if (spec.hasTimeLimitSeconds()) {
            return normalizeLimit(spec.getTimeLimitSeconds());
        }
        return p.defaultTimeSeconds() >= 0 ? p.defaultTimeSeconds() : p.maxTimeSeconds();
    }

    private static Rejected reject(String field, String what) {
        return new Rejected(field, what.startsWith(field + ":") ? what : field + ": " + what);
    }
}
