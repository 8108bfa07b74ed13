package dev.gantry.select.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * --constraint as node selection applies it: no constraint matches every node, and a matching-OR is tried one
 * alternative at a time. The expressions themselves (grammar, matching) are common's FeatureConstraint, tested there.
 */
class ConstraintTest {

    @Test
    void blank_isAny_andMatchesEveryNode() {
        for (String blank : new String[] {"", "  ", null}) {
            assertEquals(Constraint.ANY, Constraint.parse(blank));
        }
        assertTrue(Constraint.ANY.isAny());
        assertTrue(Constraint.ANY.matches(Set.of()));
        assertEquals(List.of(Constraint.ANY), Constraint.ANY.alternatives());
    }

    @Test
    void aMatchingOrExpandsIntoOneAlternativePerSet() {
        List<Constraint> alternatives = Constraint.parse("ib&[rack1|rack2]").alternatives();

        assertEquals(List.of(Constraint.parse("ib&rack1"), Constraint.parse("ib&rack2")), alternatives);
        assertEquals(List.of(true, false), alternatives.stream().map(a -> a.matches(Set.of("ib", "rack1"))).toList());
    }

    @Test
    void malformedExpressionsSayWhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Constraint.parse("a&"));
        assertEquals("'a&': expected a feature name at the end (position 3)", e.getMessage());
    }
}
