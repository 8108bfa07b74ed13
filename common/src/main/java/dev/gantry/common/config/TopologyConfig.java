package dev.gantry.common.config;

import java.util.List;
import java.util.Optional;

/**
 * A switch tree from topology.conf (TopologyPlugin=topology/tree, https://slurm.schedmd.com/topology.conf.html).
 * Empty means flat: no topology. Immutable.
 *
 * @param switches every switch, in file order
 */
public record TopologyConfig(List<SwitchConfig> switches) {

    public static final TopologyConfig FLAT = new TopologyConfig(List.of());

    public TopologyConfig {
        switches = List.copyOf(switches);
    }

    public boolean isFlat() {
        return switches.isEmpty();
    }

    public Optional<SwitchConfig> find(String name) {
        return switches.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The leaf switch a node hangs from, if any. */
    public Optional<SwitchConfig> leafOf(String node) {
        return switches.stream().filter(s -> s.nodes().contains(node)).findFirst();
    }

    /**
     * One switch.
     *
     * @param parent the switch above it, empty for a top switch
     * @param level 0 for a leaf switch (it has nodes); otherwise one more than its highest child
     * @param nodes the nodes of a leaf switch, expanded; empty for an upper switch
     * @param children the child switches of an upper switch; empty for a leaf switch
     * @param line the topology.conf line that defined it
     */
    public record SwitchConfig(String name, String parent, int level, List<String> nodes, List<String> children,
            int line) {
        public SwitchConfig {
            nodes = List.copyOf(nodes);
            children = List.copyOf(children);
        }
    }
}
