package dev.gantry.scheduler.submit;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.config.PartitionConfig;
import dev.gantry.common.units.SlurmTime;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.ResourceAsk;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a submission against the cluster config and applies Slurm's defaults, before anything is stored.
 * A job that no partition could ever run is refused here (Slurm's EnforcePartLimits=ANY: it is enough that
 * one requested partition can take it), with a message naming the field and the limit. Pure.
 *
 * <p>Sizes: the script at most SchedulerParameters=max_script_size bytes (Slurm's _test_job_desc_fields in
 * job_mgr.c, which answers ESLURM_PATHNAME_TOO_LONG), the environment at most {@link #MAX_ENVIRONMENT_BYTES}, both
 * counted in UTF-8 as they are stored and sent on. {@link #maxMessageBytes} sizes the client API's messages from them.
 */
public final class SubmissionPolicy {

    /**
     * Upper bound on the submitted environment, counted as Slurm holds it (each variable as "KEY=VALUE" and its NUL),
     * so one job cannot bloat the store. Gantry's own: Slurm has none.
     */
    public static final int MAX_ENVIRONMENT_BYTES = 1024 * 1024;
    public static final int MAX_NAME_LENGTH = 1024;
    /** What {@link #maxMessageBytes} allows for a request's fields other than its script and environment. */
    static final int MESSAGE_HEADROOM_BYTES = 4 << 20;

    private final ClusterConfig config;
    /** SchedulerParameters=max_script_size, bytes. */
    private final int maxScriptBytes;
    /** Node names, and each partition's nodes: looked up once, as a submission must not cost O(nodes²). */
    private final java.util.Set<String> nodeNames;
    private final java.util.Map<String, List<dev.gantry.common.config.NodeConfig>> members = new java.util.HashMap<>();

    public SubmissionPolicy(ClusterConfig config) {
        this.config = config;
        this.maxScriptBytes = config.get(Keys.SCHEDULER_PARAMETERS).maxScriptBytes();
        java.util.Map<String, dev.gantry.common.config.NodeConfig> byName = new java.util.HashMap<>();
        config.nodes().forEach(n -> byName.put(n.name(), n));
        this.nodeNames = java.util.Set.copyOf(byName.keySet());
        for (PartitionConfig p : config.partitions()) {
            members.put(p.name(), p.nodes().stream().map(byName::get).toList());
        }
    }

    /**
     * The largest message the client API takes (its gRPC server's max inbound size), in bytes, when scripts may have
     * {@code maxScriptBytes}: the script; three times the environment's limit, as a map entry's wire form costs at
     * most three times what is counted here (6 bytes of tags and lengths where "=" and NUL count 2); and
     * {@link #MESSAGE_HEADROOM_BYTES} for everything else (arguments, paths, options). A submission within these
     * reaches {@link #check}, so a refusal names the limit it broke; a bigger message is refused by the transport
     * (RESOURCE_EXHAUSTED). Well below 2 GiB for every max_script_size Gantry takes.
     */
    public static int maxMessageBytes(int maxScriptBytes) {
        return maxScriptBytes + 3 * MAX_ENVIRONMENT_BYTES + MESSAGE_HEADROOM_BYTES;
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

    public Decision check(JobRequest request) {
        // --- the request's own shape
        if (request.script().isEmpty()) {
            return reject("script", "is empty; a batch script is required");
        }
        if (!request.script().startsWith("#!")) {
            return reject("script", "must start with #! followed by the path to an interpreter");
        }
        long scriptBytes = utf8Bytes(request.script());
        if (scriptBytes > maxScriptBytes) {
            return reject("script", scriptBytes + " bytes exceeds the limit of " + maxScriptBytes
                    + " bytes (SchedulerParameters=max_script_size)");
        }
        long envBytes = request.environment().entrySet().stream()
                .mapToLong(e -> utf8Bytes(e.getKey()) + utf8Bytes(e.getValue()) + 2L).sum();
        if (envBytes > MAX_ENVIRONMENT_BYTES) {
            return reject("environment", envBytes + " bytes (as KEY=VALUE strings) exceeds the limit of "
                    + MAX_ENVIRONMENT_BYTES + " bytes");
        }
        if (request.user().isBlank()) {
            return reject("user", "is required");
        }
        if (request.name().length() > MAX_NAME_LENGTH) {
            return reject("name", "is " + request.name().length() + " characters; the limit is " + MAX_NAME_LENGTH);
        }
        if (!request.workDir().startsWith("/")) {
            return reject("work_dir", "must be an absolute path, got '" + request.workDir() + "'");
        }
        for (Least count : List.of(
                new Least("min_nodes", request.minNodes(), 1),
                new Least("max_nodes", request.maxNodes(), 1),
                new Least("ntasks", request.ntasks(), 1),
                new Least("cpus_per_task", request.cpusPerTask(), 1),
                new Least("mem_per_node_mb", request.memPerNodeMb(), 0), // --mem=0: all of a node's memory
                new Least("ntasks_per_node", request.ntasksPerNode(), 1),
                new Least("mem_per_cpu_mb", request.memPerCpuMb(), 1))) {
            if (count.value() != null && count.value().longValue() < count.least()) {
                return reject(count.field(), (count.least() == 0 ? "must not be negative" : "must be at least " + count.least())
                        + ", got " + count.value());
            }
        }
        if (request.memPerCpuMb() != null && request.memPerNodeMb() != null) {
            return reject("mem_per_cpu_mb", "not together with mem_per_node_mb (--mem and --mem-per-cpu are mutually exclusive)");
        }
        if (request.timeLimitSeconds() != null && request.timeLimitSeconds() < 0 && request.timeLimitSeconds() != SlurmTime.UNLIMITED) {
            return reject("time_limit_seconds", "must be positive or -1 (UNLIMITED), got " + request.timeLimitSeconds());
        }
        NodeRequest nodeRequest;
        switch (NodeRequest.parse(request, config, nodeNames)) {
            case Misfit m -> {
                return reject(m.field(), m.message());
            }
            case NodeRequest r -> nodeRequest = r;
        }
        int tasksPerNode = request.ntasksPerNode() != null ? request.ntasksPerNode() : 0;
        // Slurm: -w with more nodes than -N raises the node count; -n with --ntasks-per-node implies the nodes needed
        int impliedNodes = Math.max(1, nodeRequest.required().size());
        if (tasksPerNode > 0 && request.ntasks() != null) {
            impliedNodes = Math.max(impliedNodes, (request.ntasks() + tasksPerNode - 1) / tasksPerNode);
        }
        int minNodes = request.minNodes() != null ? Math.max(request.minNodes(), nodeRequest.required().size()) : impliedNodes;
        int maxNodes = request.maxNodes() != null ? request.maxNodes() : minNodes;
        if (request.maxNodes() != null && maxNodes < nodeRequest.required().size()) {
            return reject("nodelist", nodeRequest.required().size() + " nodes listed, more than max_nodes " + maxNodes);
        }
        if (maxNodes < minNodes) {
            return reject("max_nodes", maxNodes + " is less than min_nodes " + minNodes);
        }
        int ntasks = request.ntasks() != null ? request.ntasks() : tasksPerNode > 0 ? tasksPerNode * minNodes : minNodes;
        if (ntasks < minNodes) {
            return reject("ntasks", ntasks + " task(s) cannot span min_nodes " + minNodes + " nodes");
        }
        int cpusPerTask = request.cpusPerTask() != null ? request.cpusPerTask() : 1;

        // --- the partitions
        List<String> names = new ArrayList<>();
        for (String p : request.partitions()) {
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
            Misfit early = misfit(p, request, minNodes);
            PartitionFit.Verdict fit = early != null ? early : PartitionFit.check(config, p, members.get(p.name()), request,
                    nodeRequest, minNodes, maxNodes, ntasks, cpusPerTask, tasksPerNode);
            switch (fit) {
                case PartitionFit.Memory mem -> {
                    chosenLimit = timeLimit(p, request);
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
        long limit = request.timeLimitSeconds() != null ? normalizeLimit(request.timeLimitSeconds()) : chosenLimit;
        String name = request.name().isBlank() ? "sbatch" : request.name();
        NodeSelection selection = new NodeSelection(nodeRequest.gres(), request.exclusive(), request.constraint().trim(),
                nodeRequest.required(), nodeRequest.excluded(), request.contiguous(), request.oversubscribe());
        return new Accepted(name, names, new ResourceAsk(minNodes, maxNodes, ntasks, cpusPerTask, chosenMem.perNodeMb(),
                tasksPerNode, chosenMem.perCpuMb(), selection), limit);
    }

    /** The partition's state, node count and time limit; null when they allow the job. */
    private Misfit misfit(PartitionConfig p, JobRequest request, int minNodes) {
        if (!p.state().takesJobs()) {
            return new Misfit("partitions", "partitions: partition " + p.name() + " is " + p.state()
                    + " and accepts no new jobs");
        }
        int nodeCount = p.nodes().size();
        if (minNodes > nodeCount) {
            return new Misfit("min_nodes", "min_nodes: " + minNodes + " nodes requested, partition " + p.name()
                    + " has " + nodeCount);
        }
        if (request.timeLimitSeconds() != null) {
            long requested = normalizeLimit(request.timeLimitSeconds());
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

    private static long timeLimit(PartitionConfig p, JobRequest request) {
        if (request.timeLimitSeconds() != null) {
            return normalizeLimit(request.timeLimitSeconds());
        }
        return p.defaultTimeSeconds() >= 0 ? p.defaultTimeSeconds() : p.maxTimeSeconds();
    }

    /** An optional count of the request ({@code value}, null when not given) and the least it may be when given. */
    private record Least(String field, Number value, long least) {}

    /**
     * {@code text}'s length in UTF-8, without encoding it (a script may be max_script_size long); a lone surrogate
     * counts 3 bytes, at least what any encoder writes for it.
     */
    static long utf8Bytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static Rejected reject(String field, String what) {
        return new Rejected(field, what.startsWith(field + ":") ? what : field + ": " + what);
    }
}
