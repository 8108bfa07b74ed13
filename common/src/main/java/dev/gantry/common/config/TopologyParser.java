package dev.gantry.common.config;

import dev.gantry.common.config.TopologyConfig.SwitchConfig;
import dev.gantry.common.hostlist.Hostlist;
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
 * Reads topology.conf in Slurm's tree syntax (https://slurm.schedmd.com/topology.conf.html):
 * <pre>
 *   SwitchName=s1 Nodes=n[1-4]
 *   SwitchName=s2 Nodes=n[5-8]
 *   SwitchName=top Switches=s[1-2]
 * </pre>
 * A switch has either {@code Nodes=} (a leaf) or {@code Switches=} (above others); {@code LinkSpeed=} is accepted
 * and not used. Switches may be named before they are defined. Every problem is reported as
 * {@code file:line: key: what is wrong}, all at once, in a {@link ConfigException}: unknown keys, switches defined
 * twice, nodes not in the cluster config or on two switches, undefined child switches, a switch under two
 * parents, and cycles. Pure.
 */
public final class TopologyParser {

    private final String file;
    private final Set<String> knownNodes;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Raw> switches = new LinkedHashMap<>();

    private record Raw(String name, List<String> nodes, List<String> children, int line) {}

    private TopologyParser(String file, Set<String> knownNodes) {
        this.file = file;
        this.knownNodes = knownNodes;
    }

    /** Reads and parses a topology file; node names are checked against {@code knownNodes}. */
    public static TopologyConfig parse(Path path, Set<String> knownNodes) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(List.of(path + ": cannot read: " + e.getMessage()));
        }
        return parse(path, text, knownNodes);
    }

    /** Parses topology text; {@code source} names it in messages. */
    public static TopologyConfig parse(Path source, String text, Set<String> knownNodes) {
        TopologyParser p = new TopologyParser(source.toString(), knownNodes);
        TopologyConfig t = p.run(text);
        if (!p.problems.isEmpty()) {
            throw new ConfigException(p.problems);
        }
        return t;
    }

    private TopologyConfig run(String text) {
        ConfSyntax.logicalLines(text, this::line);
        return problems.isEmpty() ? build() : TopologyConfig.FLAT;
    }

    private void line(String text, int lineNo) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String token : text.split("\\s+")) {
            int eq = token.indexOf('=');
            if (eq <= 0) {
                problem(lineNo, token, "expected Key=Value");
                return;
            }
            String key = token.substring(0, eq).toLowerCase(Locale.ROOT);
            if (!Set.of("switchname", "nodes", "switches", "linkspeed").contains(key)) {
                problem(lineNo, token.substring(0, eq), "unknown key (SwitchName, Switches, Nodes, LinkSpeed)");
                return;
            }
            if (pairs.put(key, token.substring(eq + 1)) != null) {
                problem(lineNo, token.substring(0, eq), "given twice on one line");
                return;
            }
        }
        String name = pairs.get("switchname");
        if (name == null || !text.regionMatches(true, 0, "SwitchName=", 0, 11)) {
            problem(lineNo, "SwitchName", "each line must start with SwitchName=");
            return;
        }
        if (!name.matches("[A-Za-z0-9_.\\-]+")) {
            problem(lineNo, "SwitchName", "'" + name + "' is not a valid switch name");
            return;
        }
        if (switches.containsKey(name)) {
            problem(lineNo, "SwitchName", name + " is already defined on line " + switches.get(name).line());
            return;
        }
        if (pairs.containsKey("linkspeed") && !pairs.get("linkspeed").matches("[0-9]+")) {
            problem(lineNo, "LinkSpeed", "'" + pairs.get("linkspeed") + "' is not a whole number");
        }
        boolean hasNodes = pairs.containsKey("nodes");
        boolean hasSwitches = pairs.containsKey("switches");
        if (hasNodes == hasSwitches) {
            problem(lineNo, "SwitchName", name + ": give either Nodes= (a leaf switch) or Switches= (an upper switch)");
            return;
        }
        List<String> nodes = hasNodes ? expand(pairs.get("nodes"), "Nodes", lineNo) : List.of();
        List<String> children = hasSwitches ? expand(pairs.get("switches"), "Switches", lineNo) : List.of();
        for (String n : nodes) {
            if (!knownNodes.contains(n)) {
                problem(lineNo, "Nodes", "unknown node " + n + " (not on a NodeName= line of the config)");
            }
            for (Raw other : switches.values()) {
                if (other.nodes().contains(n)) {
                    problem(lineNo, "Nodes", "node " + n + " is already on switch " + other.name() + " (line " + other.line() + ")");
                }
            }
        }
        switches.put(name, new Raw(name, nodes, children, lineNo));
    }

    private List<String> expand(String hostlist, String key, int lineNo) {
        try {
            List<String> names = Hostlist.expand(hostlist);
            if (names.isEmpty()) {
                problem(lineNo, key, "is empty");
            }
            return names;
        } catch (IllegalArgumentException e) {
            problem(lineNo, key, e.getMessage());
            return List.of();
        }
    }

    /** Checks the links between switches and computes parents and levels. */
    private TopologyConfig build() {
        Map<String, String> parent = new HashMap<>();
        for (Raw s : switches.values()) {
            for (String child : s.children()) {
                if (!switches.containsKey(child)) {
                    problem(s.line(), "Switches", "unknown switch " + child + " (define it on a SwitchName= line)");
                } else if (child.equals(s.name())) {
                    problem(s.line(), "Switches", s.name() + " lists itself");
                } else if (parent.containsKey(child)) {
                    problem(s.line(), "Switches", "switch " + child + " is already under " + parent.get(child));
                } else {
                    parent.put(child, s.name());
                }
            }
        }
        if (!problems.isEmpty()) {
            return TopologyConfig.FLAT;
        }
        Map<String, Integer> levels = new HashMap<>();
        for (Raw s : switches.values()) {
            level(s.name(), levels, new java.util.HashSet<>());
        }
        if (!problems.isEmpty()) {
            return TopologyConfig.FLAT;
        }
        List<SwitchConfig> out = new ArrayList<>();
        for (Raw s : switches.values()) {
            out.add(new SwitchConfig(s.name(), parent.getOrDefault(s.name(), ""), levels.get(s.name()), s.nodes(),
                    s.children(), s.line()));
        }
        return new TopologyConfig(out);
    }

    /** The level of a switch; reports a cycle once, at the switch where it closes. */
    private int level(String name, Map<String, Integer> levels, Set<String> path) {
        Integer known = levels.get(name);
        if (known != null) {
            return known;
        }
        Raw s = switches.get(name);
        if (!path.add(name)) {
            problem(s.line(), "Switches", "switch " + name + " is below itself (a cycle)");
            levels.put(name, 0);
            return 0;
        }
        int level = 0;
        for (String child : s.children()) {
            level = Math.max(level, level(child, levels, path) + 1);
        }
        path.remove(name);
        levels.put(name, level);
        return level;
    }

    private void problem(int lineNo, String key, String what) {
        problems.add(file + ":" + lineNo + ": " + key + ": " + what);
    }
}
