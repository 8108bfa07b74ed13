package dev.gantry.scheduler.submit;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.NodeConfig;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.units.SlurmTime;
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

    public SubmissionPolicy(ClusterConfig config) {
        this.config = config;
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
        if (spec.hasTimeLimitSeconds() && spec.getTimeLimitSeconds() < 0 && spec.getTimeLimitSeconds() != SlurmTime.UNLIMITED) {
            return reject("time_limit_seconds", "must be positive or -1 (UNLIMITED), got " + spec.getTimeLimitSeconds());
        }
        int minNodes = spec.hasMinNodes() ? spec.getMinNodes() : 1;
        int maxNodes = spec.hasMaxNodes() ? spec.getMaxNodes() : minNodes;
        if (maxNodes < minNodes) {
            return reject("max_nodes", maxNodes + " is less than min_nodes " + minNodes);
        }
        int ntasks = spec.hasNtasks() ? spec.getNtasks() : minNodes;
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
        Long chosenMem = null;
        for (PartitionConfig p : partitions) {
            Misfit m = misfit(p, spec, minNodes, ntasks, cpusPerTask);
            if (m == null) {
                chosenLimit = timeLimit(p, spec);
                chosenMem = memory(p, spec);
                break;
            }
            if (firstProblem == null) {
                firstProblem = m.message;
                firstField = m.field;
            }
        }
        if (chosenLimit == null) {
            return reject(firstField, firstProblem);
        }
        long limit = spec.hasTimeLimitSeconds() ? normalizeLimit(spec.getTimeLimitSeconds()) : chosenLimit;
        String name = spec.getName().isBlank() ? "sbatch" : spec.getName();
        return new Accepted(name, names, new ResourceAsk(minNodes, maxNodes, ntasks, cpusPerTask, chosenMem), limit);
    }

    private record Misfit(String field, String message) {}

    private Misfit misfit(PartitionConfig p, JobSpec spec, int minNodes, int ntasks, int cpusPerTask) {
        if (p.state().equals("INACTIVE") || p.state().equals("DRAIN")) {
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
        List<NodeConfig> members = p.nodes().stream().map(n -> config.node(n).orElseThrow()).toList();
        int perNode = (ntasks * cpusPerTask + minNodes - 1) / minNodes;
        int maxCpus = members.stream().mapToInt(NodeConfig::cpus).max().orElse(0);
        if (perNode > maxCpus) {
            return new Misfit("cpus_per_task", "cpus_per_task: " + ntasks + " task(s) x " + cpusPerTask + " CPU(s) on "
                    + minNodes + " node(s) needs " + perNode + " CPUs per node; the largest node in partition " + p.name()
                    + " has " + maxCpus);
        }
        long mem = memory(p, spec);
        long maxMem = members.stream().mapToLong(NodeConfig::realMemoryMb).max().orElse(0);
        if (mem > maxMem) {
            return new Misfit("mem_per_node_mb", "mem_per_node_mb: " + mem + "M per node requested; the largest node in partition "
                    + p.name() + " has " + maxMem + "M");
        }
        if (p.maxMemPerNodeMb() > 0 && mem > p.maxMemPerNodeMb()) {
            return new Misfit("mem_per_node_mb", "mem_per_node_mb: " + mem + "M per node exceeds partition " + p.name()
                    + " MaxMemPerNode " + p.maxMemPerNodeMb() + "M");
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

    /** MiB per node: --mem, where --mem=0 means all of a node's memory (the smallest member's). */
    private long memory(PartitionConfig p, JobSpec spec) {
        if (!spec.hasMemPerNodeMb()) {
            return p.defMemPerNodeMb();
        }
        if (spec.getMemPerNodeMb() == 0) {
            return p.nodes().stream().map(n -> config.node(n).orElseThrow()).mapToLong(NodeConfig::realMemoryMb).min().orElse(0);
        }
        return spec.getMemPerNodeMb();
    }

    private static Rejected reject(String field, String what) {
        return new Rejected(field, what.startsWith(field + ":") ? what : field + ": " + what);
    }
}
