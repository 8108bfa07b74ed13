package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** --constraint expressions: which feature sets match, and the alternatives a matching-OR expands to. */
class ConstraintTest {

    static Stream<Arguments> matches() {
        return Stream.of(
                Arguments.of("a single feature", "intel", Set.of("intel", "ib"), true),
                Arguments.of("a missing feature", "amd", Set.of("intel"), false),
                Arguments.of("AND needs both", "intel&ib", Set.of("intel"), false),
                Arguments.of("AND with both", "intel&ib", Set.of("ib", "intel"), true),
                Arguments.of("OR needs either", "amd|intel", Set.of("intel"), true),
                Arguments.of("AND binds tighter than OR", "amd|intel&ib", Set.of("amd"), true),
                Arguments.of("parentheses group", "(amd|intel)&ib", Set.of("amd"), false),
                Arguments.of("a matching-OR matches any one set", "[rack1|rack2]", Set.of("rack2"), true),
                Arguments.of("a count is read as every node having it", "gpu*2&ib", Set.of("gpu", "ib"), true),
                Arguments.of("blank matches anything", "", Set.of(), true));
    }

    @ParameterizedTest(name = "{0}: {1} on {2}")
    @MethodSource("matches")
    void matchesFeatureSets(String rule, String expression, Set<String> features, boolean expected) {
        assertEquals(expected, Constraint.parse(expression).matches(features));
    }

    @Test
    void aMatchingOrExpandsIntoOneAlternativePerSet() {
        List<Constraint> alternatives = Constraint.parse("ib&[rack1|rack2]").alternatives();

        assertEquals(2, alternatives.size());
        assertEquals(List.of(true, false), alternatives.stream().map(a -> a.matches(Set.of("ib", "rack1"))).toList());
        assertEquals(List.of("ib", "rack1", "rack2"), Constraint.parse("ib&[rack1|rack2]").features());
    }

    @Test
    void malformedExpressionsSayWhere() {
        for (String bad : Arrays.asList("a&", "(a|b", "[a|b", "a)b", "a*")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Constraint.parse(bad), bad);
            assertEquals(true, e.getMessage().startsWith("constraint '" + bad + "' at "), e.getMessage());
        }
    }
}
