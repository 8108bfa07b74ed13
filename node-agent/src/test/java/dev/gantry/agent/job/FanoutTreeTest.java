package dev.gantry.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FanoutTreeTest {

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("width 50 reaches three nodes directly", List.of("b", "c", "d"), 50, "b:[] c:[] d:[]"),
                Arguments.of("width 1 is a chain", List.of("b", "c", "d"), 1, "b:[c, d]"),
                Arguments.of("width 2 splits into two even spans", List.of("b", "c", "d", "e", "f", "g"), 2, "b:[c, d] e:[f, g]"),
                Arguments.of("uneven spans: the first ones are longer", List.of("b", "c", "d", "e", "f"), 2, "b:[c, d] e:[f]"),
                Arguments.of("width 3 over seven nodes", List.of("b", "c", "d", "e", "f", "g", "h"), 3, "b:[c, d] e:[f] g:[h]"),
                Arguments.of("nothing left to reach: no forward", List.<String>of(), 50, ""),
                Arguments.of("a width below 1 counts as 1", List.of("b", "c"), 0, "b:[c]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void eachNodeForwardsToTheHeadsOfItsSpans(String name, List<String> rest, int width, String expected) {
        String shape = String.join(" ", FanoutTree.branches(rest, width).stream().map(b -> b.head() + ":" + b.below()).toList());
        assertEquals(expected, shape);
    }

    @Test
    void everyNodeIsReachedExactlyOnce_inAllocationOrder() {
        for (int n = 1; n <= 120; n++) {
            for (int w = 1; w <= 9; w++) {
                List<Integer> rest = IntStream.range(1, n).boxed().toList();
                List<Integer> reached = new ArrayList<>();
                walk(rest, w, reached);
                assertEquals(rest, reached, n + " nodes, width " + w);
            }
        }
    }

    @Test
    void depthIsTheFewestLevelsATreeOfThatWidthNeeds_atMostCeilLogWOfN() {
        for (int n = 1; n <= 300; n++) {
            for (int w = 2; w <= 9; w++) {
                int depth = FanoutTree.depth(n, w);
                int fewest = 0;
                long capacity = 1;
                long level = 1;
                while (capacity < n) {
                    level *= w;
                    capacity += level;
                    fewest++;
                }
                assertEquals(fewest, depth, n + " nodes, width " + w);
                assertTrue(depth <= (int) Math.ceil(Math.log(n) / Math.log(w) - 1e-9), n + " nodes, width " + w + ": depth " + depth);
            }
        }
    }

    @Test
    void widthOneIsAChainOfNMinusOneHops_andWidthAtLeastNIsOneHop() {
        assertEquals(2, FanoutTree.depth(3, 1));
        assertEquals(9, FanoutTree.depth(10, 1));
        assertEquals(1, FanoutTree.depth(3, 2));
        assertEquals(1, FanoutTree.depth(50, 50));
        assertEquals(2, FanoutTree.depth(52, 50));
        assertEquals(0, FanoutTree.depth(1, 50));
    }

    /** Visits nodes in the order a depth-first walk meets them: a head, then its span. */
    private static void walk(List<Integer> rest, int width, List<Integer> reached) {
        for (FanoutTree.Branch<Integer> b : FanoutTree.branches(rest, width)) {
            reached.add(b.head());
            walk(b.below(), width, reached);
        }
    }
}
