package dev.gantry.select.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tree network topology (topology/tree, https://slurm.schedmd.com/topology.conf.html): leaf switches name nodes,
 * upper switches name switches. Level 0 is a leaf; a switch is one level above its highest child.
 */
public record Topology(List<Switch> switches) {

    public static final Topology NONE = new Topology(List.of());

    /** {@code SwitchName=name Switches=… Nodes=…} with host lists already expanded. */
    public record Switch(String name, List<String> switches, List<String> nodes) {
        public Switch {
            switches = List.copyOf(switches);
            nodes = List.copyOf(nodes);
        }
    }

    public Topology {
        switches = List.copyOf(switches);
    }

    public boolean isEmpty() {
        return switches.isEmpty();
    }

    /** Each switch's level; switches in a cycle or naming unknown switches are left out. */
    public Map<String, Integer> levels() {
        Map<String, Switch> byName = new HashMap<>();
        switches.forEach(s -> byName.put(s.name(), s));
        Map<String, Integer> levels = new HashMap<>();
        for (Switch s : switches) {
            level(s, byName, levels, new ArrayList<>());
        }
        levels.values().removeIf(level -> level < 0);
        return levels;
    }

    private static int level(Switch s, Map<String, Switch> byName, Map<String, Integer> levels, List<String> path) {
        Integer known = levels.get(s.name());
        if (known != null) {
            return known;
        }
        if (path.contains(s.name())) {
            return -1;
        }
        path.add(s.name());
        int level = 0;
        for (String child : s.switches()) {
            Switch c = byName.get(child);
            int l = c == null ? -1 : level(c, byName, levels, path);
            if (l < 0) {
                level = -1;
                break;
            }
            level = Math.max(level, l + 1);
        }
        path.removeLast();
        levels.put(s.name(), level);
        return level;
    }
}
