package dev.gantry.agent.job;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of a multi-node launch, as Slurm's TreeWidth forwarding builds it
 * (<a href="https://slurm.schedmd.com/slurm.conf.html#OPT_TreeWidth">TreeWidth</a>): the node that received a
 * request splits the nodes it must still reach into at most {@code width} contiguous spans of near-equal size
 * (the first spans one longer when they do not divide evenly), sends the request to each span's first node, and
 * that node does the same with the rest of its span. Every node is reached exactly once, and N nodes are
 * reached in the fewest levels a tree of that width allows: depth d with 1 + W + … + W^d ≥ N (at most
 * ⌈log_W N⌉ for W ≥ 2; a chain of N - 1 hops for W = 1).
 *
 * <p>Pure and order-preserving: the same list and width always give the same tree.
 */
public final class FanoutTree {

    private FanoutTree() {}

    /** One forward: send to {@code head}, which must then reach {@code below}. */
    public record Branch<T>(T head, List<T> below) {
        public Branch {
            below = List.copyOf(below);
        }
    }

    /**
     * The forwards a node makes for the nodes it must still reach ({@code rest}, in order).
     *
     * @param width TreeWidth; values below 1 count as 1
     */
    public static <T> List<Branch<T>> branches(List<T> rest, int width) {
        int w = Math.max(1, width);
        int n = rest.size();
        int spans = Math.min(w, n);
        List<Branch<T>> out = new ArrayList<>(spans);
        int from = 0;
        for (int i = 0; i < spans; i++) {
            int size = n / spans + (i < n % spans ? 1 : 0);
            out.add(new Branch<>(rest.get(from), rest.subList(from + 1, from + size)));
            from += size;
        }
        return out;
    }

    /** How many hops the farthest of {@code nodes} is from the first, the root (0 for one node). */
    public static int depth(int nodes, int width) {
        if (nodes <= 1) {
            return 0;
        }
        return depthBelow(java.util.Collections.nCopies(nodes - 1, Boolean.TRUE), width);
    }

    private static <T> int depthBelow(List<T> rest, int width) {
        int deepest = 0;
        for (Branch<T> b : branches(rest, width)) {
            deepest = Math.max(deepest, 1 + depthBelow(b.below(), width));
        }
        return deepest;
    }
}
