package dev.gantry.common.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.common.resources.FeatureConstraint.AllOf;
import dev.gantry.common.resources.FeatureConstraint.AnyOf;
import dev.gantry.common.resources.FeatureConstraint.Counted;
import dev.gantry.common.resources.FeatureConstraint.Feature;
import dev.gantry.common.resources.FeatureConstraint.Matching;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** sbatch --constraint expressions (https://slurm.schedmd.com/sbatch.html#OPT_constraint). */
class FeatureConstraintTest {

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("intel", new Feature("intel", 0)),
                Arguments.of("intel&ib", new AllOf(List.of(new Feature("intel", 0), new Feature("ib", 0)))),
                Arguments.of("intel|amd", new AnyOf(List.of(new Feature("intel", 0), new Feature("amd", 0)))),
                Arguments.of("a&b|c", new AnyOf(List.of(new AllOf(List.of(new Feature("a", 0), new Feature("b", 0))),
                        new Feature("c", 0)))),
                Arguments.of("intel*2", new Feature("intel", 2)),
                Arguments.of("[rack1|rack2]", new Matching(new AnyOf(List.of(new Feature("rack1", 0), new Feature("rack2", 0))))),
                Arguments.of("[rack1*2&rack2*4]", new Matching(new AllOf(List.of(new Feature("rack1", 2), new Feature("rack2", 4))))),
                Arguments.of("(knl&flat)*4&haswell", new AllOf(List.of(
                        new Counted(new AllOf(List.of(new Feature("knl", 0), new Feature("flat", 0))), 4),
                        new Feature("haswell", 0)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void parses(String text, FeatureConstraint expected) {
        assertEquals(expected, FeatureConstraint.parse(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', textBlock = """
            a&                ; 'a&': expected a feature name at the end (position 3)
            a||b              ; 'a||b': expected a feature name at '|' (position 3)
            [a|b              ; '[a|b': expected ']' at the end (position 5)
            a)                ; 'a)': unexpected ')' (position 2)
            a*                ; 'a*': expected a node count after '*' (position 3)
            a*0               ; 'a*0': node count must be at least 1 (position 4)
            [a|[b|c]]         ; '[a|[b|c]]': brackets do not nest (position 4)
            a,b               ; 'a,b': unexpected ',' (position 2)
            """)
    void refusesMalformed(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> FeatureConstraint.parse(text)).getMessage());
    }

    @ParameterizedTest(name = "{0} admits a node with [{1}]: {2}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', textBlock = """
            intel&ib ; intel ib ; true
            intel&ib ; intel ; false
            intel|amd ; amd ; true
            intel|amd ; arm ; false
            [rack1|rack2] ; rack2 ; true
            [rack1|rack2] ; rack3 ; false
            intel*2&ib ; ib ; true
            """)
    void admits(String text, String features, boolean expected) {
        Set<String> node = new HashSet<>(Arrays.asList(features.split(" ")));
        assertEquals(expected, FeatureConstraint.parse(text).admits(node));
    }

    @ParameterizedTest(name = "{0}: {1} matches a node with [{2}]: {3}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', textBlock = """
            a single feature               ; intel         ; intel ib ; true
            a missing feature              ; amd           ; intel    ; false
            AND needs both                 ; intel&ib      ; intel    ; false
            AND with both                  ; intel&ib      ; ib intel ; true
            OR needs either                ; amd|intel     ; intel    ; true
            AND binds tighter than OR      ; amd|intel&ib  ; amd      ; true
            parentheses group              ; (amd|intel)&ib ; amd     ; false
            a matching-OR matches any one set ; [rack1|rack2] ; rack2 ; true
            a count is read as every node having it ; gpu*2&ib ; gpu ib ; true
            a counted feature is still required ; gpu*2&ib ; ib       ; false
            """)
    void matches(String rule, String text, String features, boolean expected) {
        Set<String> node = new HashSet<>(Arrays.asList(features.split(" ")));
        assertEquals(expected, FeatureConstraint.parse(text).matches(node));
    }

    @Test
    void alternatives_expandAMatchingOrIntoOnePlainExpressionPerSet_inOrder() {
        assertEquals(List.of(FeatureConstraint.parse("ib&rack1"), FeatureConstraint.parse("ib&rack2")),
                FeatureConstraint.parse("ib&[rack1|rack2]").alternatives());
        assertEquals(List.of(FeatureConstraint.parse("a&c"), FeatureConstraint.parse("a&d"), FeatureConstraint.parse("b&c"),
                FeatureConstraint.parse("b&d")), FeatureConstraint.parse("[a|b]&[c|d]").alternatives());
        assertEquals(List.of(FeatureConstraint.parse("intel|amd")), FeatureConstraint.parse("intel|amd").alternatives());
    }

    @Test
    void names_andThoseNoNodeHas() {
        FeatureConstraint c = FeatureConstraint.parse("[rack1|rack9]&(gpu&ib)*2");
        assertEquals(List.of("rack1", "rack9", "gpu", "ib"), List.copyOf(c.names()));
        assertEquals(List.of("rack9"), c.namesNotOn(List.of(Set.of("rack1", "gpu"), Set.of("ib"))));
    }
}
