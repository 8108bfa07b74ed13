package dev.gantry.common.overlap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OverlapRuleTest {

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("select/linear", "CR_Memory", new OverlapRule.WholeNodes()),
                Arguments.of("select/linear", "", new OverlapRule.WholeNodes()),
                Arguments.of("select/cons_tres", "CR_Core", new OverlapRule.SpecificCores()),
                Arguments.of("select/cons_tres", "CR_Core_Memory", new OverlapRule.SpecificCores()),
                Arguments.of("select/cons_res", "CR_CPU", new OverlapRule.CountedCpus()),
                Arguments.of("select/cons_tres", "CR_CPU_Memory", new OverlapRule.CountedCpus()),
                Arguments.of("select/cons_tres", "CR_Socket_Memory", new OverlapRule.Sockets()),
                Arguments.of("select/cons_tres", "CR_Memory", new OverlapRule.WholeNodes()),
                Arguments.of("", "", new OverlapRule.SpecificCores()));
    }

    @ParameterizedTest(name = "{0} {1} → {2}")
    @MethodSource("rules")
    void theRuleFollowsSelectTypeParameters(String type, String params, OverlapRule expected) {
        assertEquals(expected, OverlapRule.of(type, params));
    }

    /** Node n0: 8 CPUs, 4 cores per socket; n1 likewise. */
    static Stream<Arguments> overlaps() {
        NodeHold cores01 = new NodeHold("n0", 2, List.of(0, 1));
        NodeHold cores23 = new NodeHold("n0", 2, List.of(2, 3));
        NodeHold cores45 = new NodeHold("n0", 2, List.of(4, 5));
        NodeHold core1 = new NodeHold("n0", 1, List.of(1));
        NodeHold counted6 = new NodeHold("n0", 6, List.of());
        NodeHold counted2 = new NodeHold("n0", 2, List.of());
        NodeHold counted3 = new NodeHold("n0", 3, List.of());
        NodeHold otherNode = new NodeHold("n1", 8, List.of(0, 1, 2, 3, 4, 5, 6, 7));
        return Stream.of(
                Arguments.of("linear: one shared node", new OverlapRule.WholeNodes(), cores01, cores45, true),
                Arguments.of("linear: different nodes", new OverlapRule.WholeNodes(), cores01, otherNode, false),
                Arguments.of("core: different cores of one node", new OverlapRule.SpecificCores(), cores01, cores23, false),
                Arguments.of("core: one shared core", new OverlapRule.SpecificCores(), cores01, core1, true),
                Arguments.of("core: a node held without core ids is held whole", new OverlapRule.SpecificCores(), counted2, cores45, true),
                Arguments.of("socket: cores 0-1 and 2-3 share socket 0", new OverlapRule.Sockets(), cores01, cores23, true),
                Arguments.of("socket: cores 0-1 and 4-5 are on sockets 0 and 1", new OverlapRule.Sockets(), cores01, cores45, false),
                Arguments.of("cpu: 6 + 2 of 8 CPUs fit", new OverlapRule.CountedCpus(), counted6, counted2, false),
                Arguments.of("cpu: 6 + 3 of 8 CPUs do not", new OverlapRule.CountedCpus(), counted6, counted3, true),
                Arguments.of("cpu: core ids do not matter", new OverlapRule.CountedCpus(), cores01, core1, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("overlaps")
    void twoJobsOverlapPerTheRule(String name, OverlapRule rule, NodeHold first, NodeHold second, boolean overlap) {
        NodeTable table = new NodeTable();
        table.put(new NodeShape("n0", 8, 4));
        table.put(new NodeShape("n1", 8, 4));
        ActiveSet active = rule.emptySet(table);
        active.add(Holding.of(List.of(first), table));

        assertEquals(!overlap, active.fits(Holding.of(List.of(second), table)));
    }
}
