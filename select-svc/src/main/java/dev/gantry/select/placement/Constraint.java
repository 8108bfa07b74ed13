package dev.gantry.select.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A {@code --constraint} expression over node features (https://slurm.schedmd.com/sbatch.html#OPT_constraint):
 * a feature name, AND ({@code &}), OR ({@code |}), and the matching-OR {@code [a|b]} whose nodes must all come from
 * one alternative. {@link #alternatives()} expands matching-ORs into plain expressions, tried in order.
 */
public sealed interface Constraint permits Constraint.Any, Constraint.Feature, Constraint.All, Constraint.Either,
        Constraint.OneSetOf {

    Constraint ANY = new Any();

    /** Whether a node with {@code features} satisfies this (a matching-OR: any one alternative). */
    boolean matches(Set<String> features);

    /** The plain expressions (no matching-OR) one of which every node of the job must satisfy. */
    default List<Constraint> alternatives() {
        return List.of(this);
    }

    /** Every feature name used. */
    default List<String> features() {
        List<String> out = new ArrayList<>();
        collect(this, out);
        return out;
    }

    private static void collect(Constraint c, List<String> out) {
        switch (c) {
            case Any any -> { }
            case Feature f -> out.add(f.name());
            case All all -> all.parts().forEach(p -> collect(p, out));
            case Either either -> either.parts().forEach(p -> collect(p, out));
            case OneSetOf one -> one.choices().forEach(p -> collect(p, out));
        }
    }

    /** No constraint. */
    record Any() implements Constraint {
        public boolean matches(Set<String> features) {
            return true;
        }
    }

    record Feature(String name) implements Constraint {
        public boolean matches(Set<String> features) {
            return features.contains(name);
        }
    }

    record All(List<Constraint> parts) implements Constraint {
        public All {
            parts = List.copyOf(parts);
        }

        public boolean matches(Set<String> features) {
            return parts.stream().allMatch(p -> p.matches(features));
        }

        /** The cartesian product of the parts' alternatives. */
        @Override
        public List<Constraint> alternatives() {
            List<List<Constraint>> products = List.of(List.of());
            for (Constraint part : parts) {
                List<List<Constraint>> next = new ArrayList<>();
                for (List<Constraint> prefix : products) {
                    for (Constraint alt : part.alternatives()) {
                        List<Constraint> grown = new ArrayList<>(prefix);
                        grown.add(alt);
                        next.add(grown);
                    }
                }
                products = next;
            }
            return products.stream().map(p -> p.size() == 1 ? p.getFirst() : (Constraint) new All(p)).toList();
        }
    }

    record Either(List<Constraint> parts) implements Constraint {
        public Either {
            parts = List.copyOf(parts);
        }

        public boolean matches(Set<String> features) {
            return parts.stream().anyMatch(p -> p.matches(features));
        }
    }

    /** {@code [a|b|c]}: all nodes match the same choice. */
    record OneSetOf(List<Constraint> choices) implements Constraint {
        public OneSetOf {
            choices = List.copyOf(choices);
        }

        public boolean matches(Set<String> features) {
            return choices.stream().anyMatch(p -> p.matches(features));
        }

        @Override
        public List<Constraint> alternatives() {
            return choices.stream().flatMap(c -> c.alternatives().stream()).toList();
        }
    }

    /**
     * Parses {@code a&b}, {@code a|b}, {@code [a|b]}, parentheses; AND binds tighter than OR. Blank is {@link #ANY}.
     *
     * @throws IllegalArgumentException saying where the expression is malformed
     */
    static Constraint parse(String text) {
        return ConstraintParser.parse(text);
    }
}
