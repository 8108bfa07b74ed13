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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a config file in slurm.conf syntax (https://slurm.schedmd.com/slurm.conf.html): {@code Key=Value}
 * pairs separated by white space, {@code #} comments, a trailing backslash continues a line, values may be
 * double-quoted. A line starting with NodeName= or PartitionName= describes nodes or a partition (a name of
 * DEFAULT sets defaults for the lines after it); QOS=, Account= and User= lines are read by {@link AccountingParser};
 * any other pair is a global key from {@link Keys}.
 *
 * <p>Every problem is reported, each as {@code file:line: key: what is wrong}; one or more problems throw
 * {@link ConfigException}. Keys are case-insensitive.
 */
public final class ConfigParser {

    private static final Set<String> NODE_KEYS = Set.of("nodename", "nodehostname", "nodeaddr", "cpus", "procs",
            "boards", "sockets", "corespersocket", "threadspercore", "realmemory", "gres", "feature", "features",
            "weight", "state", "port", "tmpdisk", "reason", "socketsperboard", "memspeclimit", "corespeccount");
    private static final Set<String> PARTITION_KEYS = Set.of("partitionname", "nodes", "default", "maxtime",
            "defaulttime", "state", "maxnodes", "minnodes", "prioritytier", "priorityjobfactor", "priority",
            "oversubscribe", "shared", "preemptmode", "gracetime", "allowaccounts", "allowqos", "defmempercpu",
            "defmempernode", "maxmempercpu", "maxmempernode", "exclusiveuser", "hidden", "backfillpolicy");

    /** The most CPUs one node may have. */
    private static final int MAX_CPUS = 1 << 20;

    private final String file;
    private final List<String> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<Key<?>, Object> settings = new HashMap<>();
    private final Map<Key<?>, Integer> settingLines = new HashMap<>();
    private final Map<String, NodeConfig> nodes = new LinkedHashMap<>();
    private final List<PartitionConfig> partitions = new ArrayList<>();
    private Map<String, String> nodeDefaults = Map.of();
    private Map<String, String> partitionDefaults = Map.of();
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
        return new ClusterConfig(source, new Settings(p.settings), List.copyOf(p.nodes.values()), p.partitions, p.warnings,
                topology, p.accounting);
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
        String[] lines = text.split("\n", -1);
        StringBuilder pending = new StringBuilder();
        int startLine = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = stripComment(lines[i]).stripTrailing();
            if (pending.isEmpty()) {
                startLine = i + 1;
            }
            if (line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            pending.append(line);
            String logical = pending.toString().trim();
            pending.setLength(0);
            if (!logical.isEmpty()) {
                parseLine(logical, startLine);
            }
        }
        // a backslash on the last line with no newline after it continues into nothing
        String last = pending.toString().trim();
        if (!last.isEmpty()) {
            parseLine(last, startLine);
        }
        checkPartitions();
        accounting = accountingLines.finish(partitions);
        @SuppressWarnings("unchecked")
        List<String> gresTypes = (List<String>) settings.getOrDefault(Keys.GRES_TYPES, List.of());
        NodeResources.checkGresTypes(nodes.values(), gresTypes, this::problem);
    }

    private static String stripComment(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '#' && !quoted) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    private void parseLine(String line, int lineNo) {
        List<String[]> pairs = tokenize(line, lineNo);
        if (pairs == null || pairs.isEmpty()) {
            return;
        }
        String first = pairs.get(0)[0].toLowerCase(Locale.ROOT);
        if (first.equals("nodename")) {
            nodeLine(pairs, lineNo);
        } else if (first.equals("partitionname")) {
            partitionLine(pairs, lineNo);
        } else if (AccountingParser.owns(first)) {
            accountingLines.line(pairs, lineNo);
        } else {
            for (String[] kv : pairs) {
                global(kv[0], kv[1], lineNo);
            }
        }
    }

    /** Splits into key/value pairs; null after reporting a problem. */
    private List<String[]> tokenize(String line, int lineNo) {
        List<String[]> pairs = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i >= n) {
                break;
            }
            int keyStart = i;
            while (i < n && line.charAt(i) != '=' && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            String key = line.substring(keyStart, i);
            if (i >= n || line.charAt(i) != '=') {
                problem(lineNo, key, "expected Key=Value");
                return null;
            }
            i++; // '='
            StringBuilder value = new StringBuilder();
            if (i < n && line.charAt(i) == '"') {
                int close = line.indexOf('"', i + 1);
                if (close < 0) {
                    problem(lineNo, key, "unterminated quoted value");
                    return null;
                }
                value.append(line, i + 1, close);
                i = close + 1;
            } else {
                while (i < n && !Character.isWhitespace(line.charAt(i))) {
                    value.append(line.charAt(i++));
                }
            }
            pairs.add(new String[] {key, value.toString()});
        }
        return pairs;
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
        if (settings.containsKey(k)) {
            problem(lineNo, key, "set twice (first on line " + settingLines.get(k) + ")");
            return;
        }
        try {
            settings.put(k, k.parse(value));
            settingLines.put(k, lineNo);
        } catch (IllegalArgumentException | ArithmeticException e) {
            problem(lineNo, key, e.getMessage());
        }
    }

    private Map<String, String> collect(List<String[]> pairs, Set<String> allowed, int lineNo) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String[] kv : pairs) {
            String lower = kv[0].toLowerCase(Locale.ROOT);
            if (!allowed.contains(lower)) {
                problem(lineNo, kv[0], "unknown key");
                continue;
            }
            if (m.put(lower, kv[1]) != null) {
                problem(lineNo, kv[0], "given twice on one line");
            }
        }
        return m;
    }

    private void nodeLine(List<String[]> pairs, int lineNo) {
        Map<String, String> own = collect(pairs, NODE_KEYS, lineNo);
        String names = own.get("nodename");
        if (names.equalsIgnoreCase("DEFAULT")) {
            Map<String, String> d = new LinkedHashMap<>(nodeDefaults);
            own.remove("nodename");
            d.putAll(own);
            nodeDefaults = d;
            return;
        }
        Map<String, String> m = new LinkedHashMap<>(nodeDefaults);
        m.putAll(own);
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
        String state = "UNKNOWN";
        if (m.containsKey("state")) {
            try {
                state = Values.oneOf("UNKNOWN", "IDLE", "DOWN", "DRAIN", "FUTURE").apply(m.get("state"));
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
            problem(lineNo, canonical(key), e.getMessage());
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

    private void partitionLine(List<String[]> pairs, int lineNo) {
        Map<String, String> own = collect(pairs, PARTITION_KEYS, lineNo);
        String name = own.get("partitionname");
        if (name.equalsIgnoreCase("DEFAULT")) {
            Map<String, String> d = new LinkedHashMap<>(partitionDefaults);
            own.remove("partitionname");
            d.putAll(own);
            partitionDefaults = d;
            return;
        }
        if (name.isEmpty() || !name.matches("[A-Za-z0-9_.\\-]+")) {
            problem(lineNo, "PartitionName", "'" + name + "' is not a valid partition name");
            return;
        }
        if (partitions.stream().anyMatch(p -> p.name().equals(name))) {
            problem(lineNo, "PartitionName", name + " is already defined");
            return;
        }
        Map<String, String> m = new LinkedHashMap<>(partitionDefaults);
        m.putAll(own);
        int errorsBefore = problems.size();
        List<String> members = new ArrayList<>();
        String nodeExpr = m.getOrDefault("nodes", "");
        if (nodeExpr.equalsIgnoreCase("ALL")) {
            members.addAll(nodes.keySet());
        } else {
            try {
                Set<String> seen = new LinkedHashSet<>();
                for (String n : Hostlist.expand(nodeExpr)) {
                    if (!nodes.containsKey(n)) {
                        problem(lineNo, "Nodes", "unknown node " + n + " (define it on a NodeName= line first)");
                    } else if (seen.add(n)) {
                        members.add(n);
                    }
                }
            } catch (IllegalArgumentException e) {
                problem(lineNo, "Nodes", e.getMessage());
            }
        }
        boolean isDefault = get(m, "default", Values::yesNo, false, lineNo);
        long maxTime = get(m, "maxtime", Values::timeLimit, -1L, lineNo);
        long defaultTime = get(m, "defaulttime", Values::timeLimit, -1L, lineNo);
        String state = get(m, "state", Values.oneOf("UP", "DOWN", "DRAIN", "INACTIVE"), "UP", lineNo);
        int maxNodes = get(m, "maxnodes", Values.intOrUnlimited(0, Integer.MAX_VALUE), -1, lineNo);
        int minNodes = get(m, "minnodes", Values.intRange(0, Integer.MAX_VALUE), 0, lineNo);
        int tier = get(m, "prioritytier", Values.intRange(0, 65533),
                get(m, "priority", Values.intRange(0, 65533), 1, lineNo), lineNo);
        int jobFactor = get(m, "priorityjobfactor", Values.intRange(0, 65533), 1, lineNo);
        String overSubscribe = get(m, "oversubscribe", Values::overSubscribe,
                get(m, "shared", Values::overSubscribe, "NO", lineNo), lineNo);
        String preemptMode = get(m, "preemptmode", Values::preemptMode, "", lineNo);
        long grace = get(m, "gracetime", Values.seconds(0, 65533), 0L, lineNo);
        List<String> allowAccounts = get(m, "allowaccounts", Values::list, List.of("ALL"), lineNo);
        List<String> allowQos = get(m, "allowqos", Values::list, List.of("ALL"), lineNo);
        long defMemPerCpu = get(m, "defmempercpu", Values::memoryMb, 0L, lineNo);
        long defMemPerNode = get(m, "defmempernode", Values::memoryMb, 0L, lineNo);
        long maxMemPerCpu = get(m, "maxmempercpu", Values::memoryMb, 0L, lineNo);
        long maxMemPerNode = get(m, "maxmempernode", Values::memoryMb, 0L, lineNo);
        boolean exclusiveUser = get(m, "exclusiveuser", Values::yesNo, false, lineNo);
        boolean hidden = get(m, "hidden", Values::yesNo, false, lineNo);
        String backfillPolicy = get(m, "backfillpolicy", Values.oneOf("FIRSTFIT", "PREEMPT"), "FIRSTFIT", lineNo);
        if (problems.size() > errorsBefore) {
            return;
        }
        // DefaultTime=UNLIMITED (-1, as when unset) is longer than any finite MaxTime
        boolean unlimitedDefault = defaultTime < 0 && m.containsKey("defaulttime");
        if (maxTime >= 0 && (defaultTime > maxTime || unlimitedDefault)) {
            problem(lineNo, "DefaultTime", "is longer than MaxTime");
            return;
        }
        if (maxNodes >= 0 && minNodes > maxNodes) {
            problem(lineNo, "MinNodes", "is larger than MaxNodes");
            return;
        }
        if (isDefault) {
            for (PartitionConfig p : partitions) {
                if (p.isDefault()) {
                    problem(lineNo, "Default", "partition " + p.name() + " (line " + p.line() + ") is already the default");
                    return;
                }
            }
        }
        partitions.add(new PartitionConfig(name, members, isDefault, maxTime, defaultTime, state, maxNodes, minNodes, tier,
                jobFactor, overSubscribe, preemptMode, grace, allowAccounts, allowQos, defMemPerCpu, defMemPerNode,
                maxMemPerCpu, maxMemPerNode, exclusiveUser, hidden, backfillPolicy, lineNo));
    }

    private <T> T get(Map<String, String> m, String key, java.util.function.Function<String, T> parser, T def, int lineNo) {
        String raw = m.get(key);
        if (raw == null) {
            return def;
        }
        try {
            return parser.apply(raw);
        } catch (IllegalArgumentException | ArithmeticException e) {
            problem(lineNo, canonical(key), e.getMessage());
            return def;
        }
    }

    private void checkPartitions() {
        // Nothing global yet; node-less partitions are allowed, as in Slurm.
    }

    private static String canonical(String lowerKey) {
        return switch (lowerKey) {
            case "cpus" -> "CPUs";
            case "corespersocket" -> "CoresPerSocket";
            case "threadspercore" -> "ThreadsPerCore";
            case "maxtime" -> "MaxTime";
            case "defaulttime" -> "DefaultTime";
            case "maxnodes" -> "MaxNodes";
            case "minnodes" -> "MinNodes";
            case "prioritytier" -> "PriorityTier";
            case "priorityjobfactor" -> "PriorityJobFactor";
            case "oversubscribe" -> "OverSubscribe";
            case "preemptmode" -> "PreemptMode";
            case "gracetime" -> "GraceTime";
            case "allowaccounts" -> "AllowAccounts";
            case "allowqos" -> "AllowQos";
            case "defmempercpu" -> "DefMemPerCPU";
            case "defmempernode" -> "DefMemPerNode";
            case "maxmempercpu" -> "MaxMemPerCPU";
            case "maxmempernode" -> "MaxMemPerNode";
            case "exclusiveuser" -> "ExclusiveUser";
            case "backfillpolicy" -> "BackfillPolicy";
            default -> Character.toUpperCase(lowerKey.charAt(0)) + lowerKey.substring(1);
        };
    }

    private void problem(int lineNo, String key, String what) {
        problems.add(file + ":" + lineNo + ": " + key + ": " + what);
    }
}
