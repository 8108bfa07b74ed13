package dev.gantry.common.resources;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@code --constraint} expression over node features (https://slurm.schedmd.com/sbatch.html#OPT_constraint):
 * a name ({@code intel}); AND ({@code intel&ib}); OR ({@code intel|amd}); a node count ({@code intel*2}, also
 * after a parenthesised group); parentheses for grouping; and brackets for the matching OR
 * ({@code [rack1|rack2]}: every node from the same alternative) or multiple counts ({@code [rack1*2&rack2*4]}).
 * AND binds tighter than OR. Immutable; parse with {@link #parse}.
 */
public sealed interface FeatureConstraint {

    /** A feature name, with the number of nodes that must have it (0 = every node). */
    record Feature(String name, int count) implements FeatureConstraint {}

    /** Every part holds. */
    record AllOf(List<FeatureConstraint> parts) implements FeatureConstraint {
        public AllOf {
            parts = List.copyOf(parts);
        }
    }

    /** At least one part holds (per node). */
    record AnyOf(List<FeatureConstraint> parts) implements FeatureConstraint {
        public AnyOf {
            parts = List.copyOf(parts);
        }
    }

    /** {@code [ … ]}: all nodes of the job satisfy the same alternative of {@code inner}. */
    record Matching(FeatureConstraint inner) implements FeatureConstraint {
        /** The alternatives one of which every node must satisfy (brackets do not nest: each is plain). */
        @Override
        public List<FeatureConstraint> alternatives() {
            return inner instanceof AnyOf any ? any.parts() : List.of(inner);
        }
    }

    /** {@code ( … )*count}: {@code count} nodes satisfy {@code inner}. */
    record Counted(FeatureConstraint inner, int count) implements FeatureConstraint {}

    /**
     * Parses an expression; blank is not an expression (no constraint is no FeatureConstraint).
     *
     * @throws IllegalArgumentException saying where the expression is malformed
     */
    static FeatureConstraint parse(String expression) {
        return new FeatureConstraintParser(expression).parse();
    }

    /** Every feature name the expression mentions, in order of appearance. */
    default Set<String> names() {
        Set<String> out = new LinkedHashSet<>();
        collect(this, out);
        return out;
    }

    private static void collect(FeatureConstraint c, Set<String> out) {
        switch (c) {
            case Feature f -> out.add(f.name());
            case AllOf a -> a.parts().forEach(p -> collect(p, out));
            case AnyOf a -> a.parts().forEach(p -> collect(p, out));
            case Matching m -> collect(m.inner(), out);
            case Counted k -> collect(k.inner(), out);
        }
    }

    /**
     * Whether a node with these features could be part of a job with this constraint, ignoring node counts:
     * counted and matching parts are read as plain AND/OR. A job needs at least one such node.
     */
    default boolean admits(Set<String> nodeFeatures) {
        return switch (this) {
            case Feature f -> f.count() > 0 || nodeFeatures.contains(f.name());
            case AllOf a -> a.parts().stream().allMatch(p -> p.admits(nodeFeatures));
            case AnyOf a -> a.parts().stream().anyMatch(p -> p.admits(nodeFeatures));
            case Matching m -> m.alternatives().stream().anyMatch(p -> p.matches(nodeFeatures));
            case Counted k -> true;
        };
    }

    /**
     * Whether a node with these features satisfies the expression read as a rule for every node: each feature it names
     * is required (a count read as "every node has it"), a matching-OR as a plain OR. As {@link #admits}, but a counted
     * feature must be present too.
     */
    default boolean matches(Set<String> nodeFeatures) {
        return switch (this) {
            case Feature f -> nodeFeatures.contains(f.name());
            case AllOf a -> a.parts().stream().allMatch(p -> p.matches(nodeFeatures));
            case AnyOf a -> a.parts().stream().anyMatch(p -> p.matches(nodeFeatures));
            case Matching m -> m.inner().matches(nodeFeatures);
            case Counted k -> k.inner().matches(nodeFeatures);
        };
    }

    /**
     * The expressions without a matching-OR one of which every node of the job must satisfy, in the order to try them:
     * a matching-OR gives one per alternative, an AND of parts the cartesian product of theirs ({@code ib&[r1|r2]}:
     * {@code ib&r1}, then {@code ib&r2}); any other expression is its own one alternative.
     */
    default List<FeatureConstraint> alternatives() {
        if (!(this instanceof AllOf all)) {
            return List.of(this);
        }
        List<List<FeatureConstraint>> products = List.of(List.of());
        for (FeatureConstraint part : all.parts()) {
            List<List<FeatureConstraint>> next = new ArrayList<>();
            for (List<FeatureConstraint> prefix : products) {
                for (FeatureConstraint alternative : part.alternatives()) {
                    List<FeatureConstraint> grown = new ArrayList<>(prefix);
                    grown.add(alternative);
                    next.add(grown);
                }
            }
            products = next;
        }
        return products.stream().map(p -> p.size() == 1 ? p.getFirst() : (FeatureConstraint) new AllOf(p)).toList();
    }

    /** The names no node of {@code nodes} (each given as its feature set) has, in order of appearance. */
    default List<String> namesNotOn(List<Set<String>> nodes) {
        List<String> missing = new ArrayList<>();
        for (String name : names()) {
            if (nodes.stream().noneMatch(n -> n.contains(name))) {
                missing.add(name);
            }
        }
        return missing;
    }
}
