package dev.gantry.common.config;

import dev.gantry.common.resources.GresSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the config parser checks about node resources: Features= names, Gres= entries, every GRES named in
 * GresTypes (after the whole file, as GresTypes may come later), and loading the topology/tree switch tree.
 * Problems are reported through {@link Problems} as {@code file:line: key: what is wrong}.
 */
final class NodeResources {
    private NodeResources() {}

    /** Where a problem goes: the config line, the key, and what is wrong. */
    interface Problems {
        void add(int line, String key, String what);
    }

    static void checkFeatures(List<String> features, int line, Problems problems) {
        for (String f : features) {
            if (!f.matches("[A-Za-z0-9_.\\-:+]+")) {
                problems.add(line, "Features", "'" + f + "' is not a valid feature name (letters, digits, _ . - : +)");
            }
        }
    }

    /** The entries of a Gres= value; a malformed or repeated one is reported. */
    static List<GresSpec> gres(String raw, int line, Problems problems) {
        List<GresSpec> gres = new ArrayList<>();
        try {
            for (GresSpec g : GresSpec.parseList(raw)) {
                if (gres.stream().anyMatch(o -> o.name().equals(g.name()) && o.type().equals(g.type()))) {
                    problems.add(line, "Gres", g.name() + (g.type().isEmpty() ? "" : ":" + g.type()) + " is given twice");
                }
                gres.add(g);
            }
        } catch (IllegalArgumentException e) {
            problems.add(line, "Gres", e.getMessage());
        }
        return gres;
    }

    /** Every GRES on a node line must be named in GresTypes (Slurm refuses the config otherwise). */
    static void checkGresTypes(Collection<NodeConfig> nodes, List<String> declared, Problems problems) {
        Set<String> known = new HashSet<>();
        declared.forEach(t -> known.add(t.toLowerCase(Locale.ROOT)));
        Set<String> reported = new HashSet<>();
        for (NodeConfig n : nodes) {
            for (GresSpec g : n.gres()) {
                if (!known.contains(g.name()) && reported.add(n.line() + g.name())) {
                    problems.add(n.line(), "Gres", g.name() + " is not in GresTypes" + (declared.isEmpty()
                            ? " (none set; add GresTypes=" + g.name() + ")" : " (" + String.join(",", declared) + ")"));
                }
            }
        }
    }

    /**
     * The switch tree for topology/tree: from {@code topologyFile} (relative to the config's directory) when set,
     * else topology.conf there. A missing file is reported on the line of the key that asked for it.
     *
     * @param keyLine the line of TopologyFile= when set, else of TopologyPlugin=
     * @param allProblems the parser's problem list, to which the topology file's own problems are added
     */
    static TopologyConfig topology(Path source, String topologyFile, int keyLine, Set<String> nodes, Problems problems,
            List<String> allProblems) {
        Path dir = source.toAbsolutePath().getParent();
        Path file = dir.resolve(topologyFile.isEmpty() ? "topology.conf" : topologyFile);
        if (!Files.isReadable(file)) {
            problems.add(keyLine, topologyFile.isEmpty() ? "TopologyPlugin" : "TopologyFile", "topology/tree needs a topology file; "
                    + file + " cannot be read" + (topologyFile.isEmpty() ? " (or set TopologyFile=)" : ""));
            return TopologyConfig.FLAT;
        }
        try {
            return TopologyParser.parse(file, nodes);
        } catch (ConfigException e) {
            allProblems.addAll(e.problems());
            return TopologyConfig.FLAT;
        }
    }
}
