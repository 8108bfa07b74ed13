package dev.gantry.common.config;

import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.resources.GresSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a config file in slurm.conf syntax (https://slurm.schedmd.com/slurm.conf.html): {@code Key=Value}
 * pairs separated by white space, {@code #} comments, a trailing backslash continues a line, values may be
 * double-quoted (lexical rules in {@link ConfSyntax}). A line starting with NodeName= or PartitionName= describes
 * nodes or a partition (a name of DEFAULT sets defaults for the lines after it; partition lines are read by
 * {@link PartitionParser}); QOS=, Account= and User= lines are read by {@link AccountingParser}; any other pair is a
 * global key from {@link Keys}.
 *
 * <p>Every problem is reported, each as {@code file:line: key: what is wrong}; one or more problems throw
 * {@link ConfigException}. Keys are case-insensitive.
 */
public final class ConfigParser {

    private static final Set<String> NODE_KEYS = Set.of("nodename", "nodehostname", "nodeaddr", "cpus", "procs",
            "boards", "sockets", "corespersocket", "threadspercore", "realmemory", "gres", "feature", "features",
            "weight", "state", "port", "tmpdisk", "reason", "socketsperboard", "memspeclimit", "corespeccount");

    /** The most CPUs one node may have. */
    private static final int MAX_CPUS = 1 << 20;

    private final String file;
    private final List<String> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<Key<?>, Object> settings = new HashMap<>();
    private final Map<Key<?>, Integer> settingLines = new HashMap<>();
    private final Map<String, NodeConfig> nodes = new LinkedHashMap<>();
    private final LineDefaults nodeDefaults = new LineDefaults("nodename");
    private final PartitionParser partitionLines = new PartitionParser(this::problem, nodes);
    private final AccountingParser accountingLines = new AccountingParser(this::problem);
    private Accounting accounting = Accounting.DEFAULT;

    private ConfigParser(String file) {
        this.file = file;
    }

    /** Parses a config file. */
    public static ClusterConfig parse(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(List.of(path + ": cannot read: " + e.getMessage()));
        }
        return parse(path, text);
    }

    /** Parses config text; {@code source} names it in messages. */
    public static ClusterConfig parse(Path source, String text) {
        ConfigParser p = new ConfigParser(source.toString());
        p.run(text);
        if (!p.problems.isEmpty()) {
            throw new ConfigException(p.problems);
        }
        TopologyConfig topology = p.topology(source);
        if (!p.problems.isEmpty()) {
            throw new ConfigException(p.problems);
        }
        return new ClusterConfig(source, new Settings(p.settings), List.copyOf(p.nodes.values()),
                p.partitionLines.partitions(), p.warnings, topology, p.accounting);
    }

    /**
     * With TopologyPlugin=topology/tree, the switch tree from TopologyFile= (relative to the config's directory),
     * else from topology.conf next to the config; otherwise flat.
     */
    private TopologyConfig topology(Path source) {
        if (!problems.isEmpty() || !"topology/tree".equals(settings.get(Keys.TOPOLOGY_PLUGIN))) {
            return TopologyConfig.FLAT;
        }
        String named = (String) settings.getOrDefault(Keys.TOPOLOGY_FILE, "");
        int line = settingLines.get(named.isEmpty() ? Keys.TOPOLOGY_PLUGIN : Keys.TOPOLOGY_FILE);
        return NodeResources.topology(source, named, line, nodes.keySet(), this::problem, problems);
    }

    private void run(String text) {
        ConfSyntax.logicalLines(text, this::parseLine);
        checkPartitions();
        resolvePreemptParameters();
        accounting = accountingLines.finish(partitionLines.partitions());
        @SuppressWarnings("unchecked")
        List<String> gresTypes = (List<String>) settings.getOrDefault(Keys.GRES_TYPES, List.of());
        NodeResources.checkGresTypes(nodes.values(), gresTypes, this::problem);
    }

    private void parseLine(String line, int lineNo) {
        List<String[]> pairs = ConfSyntax.tokenize(line, lineNo, this::problem);
        if (pairs == null || pairs.isEmpty()) {
            return;
        }
        String first = pairs.get(0)[0].toLowerCase(Locale.ROOT);
        if (first.equals("nodename")) {
            nodeLine(pairs, lineNo);
        } else if (first.equals("partitionname")) {
            partitionLines.line(pairs, lineNo);
        } else if (AccountingParser.owns(first)) {
            accountingLines.line(pairs, lineNo);
        } else {
            for (String[] kv : pairs) {
                global(kv[0], kv[1], lineNo);
            }
        }
    }

    private void global(String key, String value, int lineNo) {
        String lower = key.toLowerCase(Locale.ROOT);
        Key<?> k = Keys.byName(key);
        if (k == null) {
            if (Keys.IGNORED_SLURM_KEYS.contains(lower)) {
                warnings.add(file + ":" + lineNo + ": " + key + ": accepted for compatibility, not used by Gantry");
                return;
            }
            problem(lineNo, key, "unknown key");
            return;
        }
        if (k == Keys.SLURMCTLD_HOST && settings.containsKey(k)) { // one line per controller, as Slurm's backups
            @SuppressWarnings("unchecked")
            List<String> hosts = new ArrayList<>((List<String>) settings.get(k));
            String host = value.strip();
            if (host.isEmpty() || hosts.contains(host)) {
                problem(lineNo, key, host.isEmpty() ? "empty" : host + " is already listed");
                return;
            }
            hosts.add(host);
            settings.put(k, List.copyOf(hosts));
            return;
        }
        if (settings.containsKey(k)) {
            problem(lineNo, key, "set twice (first on line " + settingLines.get(k) + ")");
            return;
        }
        try {
            Object parsed = k.parse(value);
            settings.put(k, parsed);
            settingLines.put(k, lineNo);
            if (parsed instanceof SubOptions options) {
                options.ignored().forEach(note -> warnings.add(file + ":" + lineNo + ": " + key + ": " + note));
            }
        } catch (IllegalArgumentException | ArithmeticException e) {
            problem(lineNo, key, e.getMessage());
        }
    }

    private void nodeLine(List<String[]> pairs, int lineNo) {
        Map<String, String> own = ConfSyntax.collect(pairs, NODE_KEYS, lineNo, this::problem);
        if (nodeDefaults.absorb(own)) {
            return;
        }
        String names = own.get("nodename");
        Map<String, String> m = nodeDefaults.over(own);
        List<String> expanded;
        try {
            expanded = Hostlist.expand(names);
        } catch (IllegalArgumentException e) {
            problem(lineNo, "NodeName", e.getMessage());
            return;
        }
        if (expanded.isEmpty()) {
            problem(lineNo, "NodeName", "no node name given");
            return;
        }
        int errorsBefore = problems.size();
        Integer cpus = nodeInt(m, "cpus", m.containsKey("cpus") ? null : m.get("procs"), lineNo, 1, MAX_CPUS);
        Integer sockets = nodeInt(m, "sockets", null, lineNo, 1, 65535);
        Integer cores = nodeInt(m, "corespersocket", null, lineNo, 1, 65535);
        Integer threads = nodeInt(m, "threadspercore", null, lineNo, 1, 65535);
        Long memory = null;
        if (m.containsKey("realmemory")) {
            try {
                memory = Values.memoryMb(m.get("realmemory"));
                if (memory < 1) {
                    problem(lineNo, "RealMemory", "must be at least 1 (MiB)");
                }
            } catch (IllegalArgumentException | ArithmeticException e) {
                problem(lineNo, "RealMemory", e.getMessage());
            }
        }
        Integer weight = nodeInt(m, "weight", null, lineNo, 0, Integer.MAX_VALUE);
        ConfiguredNodeState state = ConfiguredNodeState.UNKNOWN;
        if (m.containsKey("state")) {
            try {
                state = ConfiguredNodeState.valueOf(
                        Values.oneOf("UNKNOWN", "IDLE", "DOWN", "DRAIN", "FUTURE").apply(m.get("state")));
            } catch (IllegalArgumentException e) {
                problem(lineNo, "State", e.getMessage());
            }
        }
        List<Integer> ports = new ArrayList<>();
        if (m.containsKey("port")) {
            try {
                for (String p : Hostlist.expand(m.get("port"))) {
                    ports.add(Values.intRange(1, 65535).apply(p));
                }
                if (ports.size() != 1 && ports.size() != expanded.size()) {
                    problem(lineNo, "Port", ports.size() + " ports for " + expanded.size() + " nodes");
                }
            } catch (IllegalArgumentException e) {
                problem(lineNo, "Port", e.getMessage());
            }
        }
        List<String> features = m.containsKey("features") ? listOr(m.get("features"), lineNo, "Features")
                : m.containsKey("feature") ? listOr(m.get("feature"), lineNo, "Feature") : List.of();
        NodeResources.checkFeatures(features, lineNo, this::problem);
        List<GresSpec> gres = m.containsKey("gres") ? NodeResources.gres(m.get("gres"), lineNo, this::problem) : List.of();
        if (problems.size() > errorsBefore) {
            return;
        }
        // Slurm (read_config.c): cores and threads default to 1; a missing Sockets is CPUs/(cores*threads) when
        // that divides evenly, else 1; a missing CPUs is S*C*T; CPUs must equal S, S*C or S*C*T.
        int c = cores != null ? cores : 1;
        int t = threads != null ? threads : 1;
        long ct = (long) c * t;
        int s = sockets != null ? sockets
                : cpus != null && cpus >= ct && cpus % ct == 0 ? (int) (cpus / ct) : 1;
        long sct = s * ct;
        if (sct > MAX_CPUS) {
            problem(lineNo, "CPUs", "Sockets*CoresPerSocket*ThreadsPerCore=" + sct + " is more than " + MAX_CPUS);
            return;
        }
        int total = cpus != null ? cpus : (int) sct;
        if (total != s && total != (long) s * c && total != sct) {
            problem(lineNo, "CPUs", "CPUs=" + total + " does not match Sockets*CoresPerSocket*ThreadsPerCore=" + sct);
            return;
        }
        for (int i = 0; i < expanded.size(); i++) {
            String name = expanded.get(i);
            if (nodes.containsKey(name)) {
                problem(lineNo, "NodeName", name + " is already defined on line " + nodes.get(name).line());
                continue;
            }
            int port = ports.isEmpty() ? 0 : ports.size() == 1 ? ports.get(0) : ports.get(i);
            String hostname = m.getOrDefault("nodehostname", m.getOrDefault("nodeaddr", "localhost"));
            nodes.put(name, new NodeConfig(name, hostname, total, s, c, t, memory != null ? memory : 1, features, gres,
                    weight != null ? weight : 1, state, port, lineNo));
        }
    }

    private Integer nodeInt(Map<String, String> m, String key, String fallback, int lineNo, int min, int max) {
        String raw = m.containsKey(key) ? m.get(key) : fallback;
        if (raw == null) {
            return null;
        }
        try {
            return Values.intRange(min, max).apply(raw);
        } catch (IllegalArgumentException e) {
            problem(lineNo, ConfSyntax.canonical(key), e.getMessage());
            return null;
        }
    }

    private List<String> listOr(String raw, int lineNo, String key) {
        try {
            return Values.list(raw);
        } catch (IllegalArgumentException e) {
            problem(lineNo, key, e.getMessage());
            return List.of();
        }
    }

    /** PreemptParameters with SchedulerParameters' older preempt_* options under them (see PreemptParameters). */
    private void resolvePreemptParameters() {
        if (settings.containsKey(Keys.PREEMPT_PARAMETERS) || settings.containsKey(Keys.SCHEDULER_PARAMETERS)) {
            PreemptParameters own = (PreemptParameters) settings.getOrDefault(Keys.PREEMPT_PARAMETERS,
                    PreemptParameters.parse(""));
            settings.put(Keys.PREEMPT_PARAMETERS, own.after(
                    (SchedulerParameters) settings.getOrDefault(Keys.SCHEDULER_PARAMETERS, SchedulerParameters.DEFAULT)));
        }
    }

    private void checkPartitions() {
        // Nothing global yet; node-less partitions are allowed, as in Slurm.
    }

    private void problem(int lineNo, String key, String what) {
        problems.add(file + ":" + lineNo + ": " + key + ": " + what);
    }
}
