package dev.gantry.select.placement;

import dev.gantry.placement.NodeDemand;
import dev.gantry.select.model.ClusterNode;
import dev.gantry.select.model.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Multi-node placement on a switch tree (topology/tree, https://slurm.schedmd.com/topology.html): the job goes under
 * the lowest switch that has enough qualified nodes (among equals, the one with the fewest: best fit, then config
 * order); within it, into the one leaf switch that fits with the fewest spare nodes, else into the fewest leaves,
 * fullest first. Within a leaf, nodes go by {@link Preference}. Nodes under no switch are not used for multi-node jobs.
 */
final class TreeChoice {
    private TreeChoice() {}

    /** @param demand the per-node demand at the sharing level tried: a node's best fit counts the CPUs usable at it */
    static Optional<int[]> choose(Ledger ledger, NodeDemand demand, int[] candidates, int[] required, int count) {
        Topology topology = ledger.view().topology();
        Map<String, Integer> levels = topology.levels();
        Map<String, Topology.Switch> byName = new HashMap<>();
        topology.switches().forEach(s -> byName.put(s.name(), s));
        Map<String, List<Integer>> byLeaf = new HashMap<>();
        Map<String, String> leafOf = new HashMap<>();
        for (Topology.Switch s : topology.switches()) {
            if (levels.getOrDefault(s.name(), -1) == 0) {
                s.nodes().forEach(n -> leafOf.putIfAbsent(n, s.name()));
            }
        }
        for (int c : candidates) {
            String leaf = leafOf.get(ledger.view().node(c).name());
            if (leaf != null) {
                byLeaf.computeIfAbsent(leaf, k -> new ArrayList<>()).add(c);
            }
        }
        for (int r : required) {
            if (!leafOf.containsKey(ledger.view().node(r).name())) {
                return Optional.empty();
            }
        }
        Comparator<Integer> preference = Comparator.comparingLong(c -> {
            ClusterNode node = ledger.view().node(c);
            return Preference.key(node.weight(), ledger.availableCpus(c, demand), c);
        });
        byLeaf.values().forEach(list -> list.sort(preference));
        int maxLevel = levels.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        for (int level = 0; level <= maxLevel; level++) {
            Topology.Switch best = null;
            int bestCount = Integer.MAX_VALUE;
            for (Topology.Switch s : topology.switches()) {
                if (levels.getOrDefault(s.name(), -1) != level) {
                    continue;
                }
                List<String> leaves = leavesUnder(s, byName, levels);
                int available = leaves.stream().mapToInt(l -> byLeaf.getOrDefault(l, List.of()).size()).sum();
                if (available >= count && available < bestCount && holdsRequired(ledger, leaves, leafOf, required)) {
                    best = s;
                    bestCount = available;
                }
            }
            if (best != null) {
                return Optional.of(fill(leavesUnder(best, byName, levels), byLeaf, ledger, leafOf, required, count));
            }
        }
        return Optional.empty();
    }

    private static int[] fill(List<String> leaves, Map<String, List<Integer>> byLeaf, Ledger ledger,
                              Map<String, String> leafOf, int[] required, int count) {
        List<Integer> chosen = new ArrayList<>();
        for (int r : required) {
            chosen.add(r);
        }
        List<String> order = new ArrayList<>(leaves);
        int stillNeeded = count - required.length;
        // One leaf that fits alone, with the fewest spare nodes; else fullest leaves first.
        Optional<String> single = order.stream()
                .filter(l -> byLeaf.getOrDefault(l, List.of()).size() >= count)
                .filter(l -> java.util.Arrays.stream(required).allMatch(r -> l.equals(leafOf.get(ledger.view().node(r).name()))))
                .min(Comparator.comparingInt(l -> byLeaf.get(l).size()));
        if (single.isPresent()) {
            order = List.of(single.get());
        } else {
            order.sort(Comparator.comparingInt((String l) -> byLeaf.getOrDefault(l, List.of()).size()).reversed());
        }
        for (String leaf : order) {
            for (int c : byLeaf.getOrDefault(leaf, List.of())) {
                if (stillNeeded > 0 && !chosen.contains(c)) {
                    chosen.add(c);
                    stillNeeded--;
                }
            }
        }
        return chosen.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean holdsRequired(Ledger ledger, List<String> leaves, Map<String, String> leafOf, int[] required) {
        for (int r : required) {
            if (!leaves.contains(leafOf.get(ledger.view().node(r).name()))) {
                return false;
            }
        }
        return true;
    }

    private static List<String> leavesUnder(Topology.Switch s, Map<String, Topology.Switch> byName, Map<String, Integer> levels) {
        if (levels.getOrDefault(s.name(), -1) == 0) {
            return List.of(s.name());
        }
        List<String> out = new ArrayList<>();
        for (String child : s.switches()) {
            Topology.Switch c = byName.get(child);
            if (c != null) {
                out.addAll(leavesUnder(c, byName, levels));
            }
        }
        return out;
    }
}
